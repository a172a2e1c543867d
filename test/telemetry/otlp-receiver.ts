// An OTLP/HTTP trace receiver on 127.0.0.1, as a collector would be: it accepts POST /v1/traces in
// both encodings (application/json and application/x-protobuf) and keeps the spans, decoded into
// one plain shape. The protobuf decoder reads the wire format (varints and length-delimited fields)
// for the fields of opentelemetry/proto/trace/v1/trace.proto that the tests look at.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** "" for a root span. */
  parentSpanId: string;
  name: string;
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, string | number | boolean>;
  status: { code: number; message: string };
  /** service.name of the resource that sent it. */
  service: string;
}

export interface Receiver {
  url: string;
  spans: ReceivedSpan[];
  /** Every request body as received, to look for what must not be there. */
  bodies: Buffer[];
  /** The content types the exporter sent. */
  contentTypes: string[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: Buffer[] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const type = req.headers["content-type"] ?? "";
      if (req.method !== "POST" || req.url !== "/v1/traces") return void res.writeHead(404).end();
      bodies.push(body);
      contentTypes.push(type);
      try {
        spans.push(...(type.startsWith("application/json") ? fromJson(JSON.parse(body.toString("utf8"))) : fromProtobuf(body)));
      } catch (e) {
        res.writeHead(400, { "content-type": "text/plain" }).end(String(e));
        return;
      }
      if (type.startsWith("application/json")) res.writeHead(200, { "content-type": "application/json" }).end("{}");
      else res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    spans,
    bodies,
    contentTypes,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// ------------------------------------------------------------------ http/json

interface JsonValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
}

function jsonAttributes(list: { key: string; value: JsonValue }[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? []) {
    if (value.stringValue !== undefined) out[key] = value.stringValue;
    else if (value.boolValue !== undefined) out[key] = value.boolValue;
    else if (value.intValue !== undefined) out[key] = Number(value.intValue);
    else if (value.doubleValue !== undefined) out[key] = value.doubleValue;
  }
  return out;
}

function fromJson(body: { resourceSpans: any[] }): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of body.resourceSpans) {
    const service = String(jsonAttributes(rs.resource?.attributes)["service.name"] ?? "");
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        out.push({
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId ?? "",
          name: s.name,
          kind: s.kind,
          startNs: BigInt(s.startTimeUnixNano),
          endNs: BigInt(s.endTimeUnixNano),
          attributes: jsonAttributes(s.attributes),
          status: { code: s.status?.code ?? 0, message: s.status?.message ?? "" },
          service,
        });
      }
    }
  }
  return out;
}

// ------------------------------------------------------------------ http/protobuf

/** One field of a message: its number, and its varint, 64-bit or length-delimited value. */
type Field = { no: number; varint?: bigint; fixed64?: Buffer; bytes?: Buffer };

function readVarint(buf: Buffer, at: { pos: number }): bigint {
  let result = 0n;
  let shift = 0n;
  for (;;) {
    if (at.pos >= buf.length) throw new Error("truncated varint");
    const byte = buf[at.pos++]!;
    result |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return result;
    shift += 7n;
  }
}

function fields(buf: Buffer): Field[] {
  const out: Field[] = [];
  const at = { pos: 0 };
  while (at.pos < buf.length) {
    const key = Number(readVarint(buf, at));
    const no = key >>> 3;
    switch (key & 7) {
      case 0:
        out.push({ no, varint: readVarint(buf, at) });
        break;
      case 1:
        out.push({ no, fixed64: buf.subarray(at.pos, at.pos + 8) });
        at.pos += 8;
        break;
      case 2: {
        const length = Number(readVarint(buf, at));
        out.push({ no, bytes: buf.subarray(at.pos, at.pos + length) });
        at.pos += length;
        break;
      }
      case 5:
        at.pos += 4;
        break;
      default:
        throw new Error(`unsupported wire type ${key & 7}`);
    }
  }
  return out;
}

const messages = (list: Field[], no: number) => list.filter((f) => f.no === no && f.bytes).map((f) => fields(f.bytes!));
const text = (list: Field[], no: number) => list.find((f) => f.no === no)?.bytes?.toString("utf8") ?? "";
const hex = (list: Field[], no: number) => list.find((f) => f.no === no)?.bytes?.toString("hex") ?? "";

/** KeyValue (key = 1, value = 2: AnyValue with string 1, bool 2, int 3, double 4). */
function protoAttributes(list: Field[][]): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const kv of list) {
    const value = messages(kv, 2)[0] ?? [];
    const v = value[0];
    if (v === undefined) continue;
    const key = text(kv, 1);
    if (v.no === 1) out[key] = v.bytes!.toString("utf8");
    else if (v.no === 2) out[key] = v.varint !== 0n;
    else if (v.no === 3) out[key] = Number(BigInt.asIntN(64, v.varint!));
    else if (v.no === 4) out[key] = v.fixed64!.readDoubleLE(0);
  }
  return out;
}

/** ExportTraceServiceRequest: resource_spans = 1 { resource = 1 { attributes = 1 }, scope_spans = 2 { spans = 2 } }. */
function fromProtobuf(body: Buffer): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of messages(fields(body), 1)) {
    const resource = messages(rs, 1)[0] ?? [];
    const service = String(protoAttributes(messages(resource, 1))["service.name"] ?? "");
    for (const ss of messages(rs, 2)) {
      for (const s of messages(ss, 2)) {
        const status = messages(s, 15)[0] ?? [];
        out.push({
          traceId: hex(s, 1),
          spanId: hex(s, 2),
          parentSpanId: hex(s, 4),
          name: text(s, 5),
          kind: Number(s.find((f) => f.no === 6)?.varint ?? 0n),
          startNs: s.find((f) => f.no === 7)!.fixed64!.readBigUInt64LE(0),
          endNs: s.find((f) => f.no === 8)!.fixed64!.readBigUInt64LE(0),
          attributes: protoAttributes(messages(s, 9)),
          status: { code: Number(status.find((f) => f.no === 3)?.varint ?? 0n), message: text(status, 2) },
          service,
        });
      }
    }
  }
  return out;
}
