// Providers for agent mode (SPEC §7): which provider a request's `model` names, and one
// `POST {base_url}/chat/completions` to an OpenAI-compatible one, whole or streamed. The
// provider's key comes from config.json, or with `"api_key": "passthrough"` it is the caller's
// own (a Bearer value that is not a virtual key).
import { type ProviderConfig, PASSTHROUGH_KEY } from "../gateway/config-file.js";
import { ChatAssembler, type ChatChunk } from "./chat-assembly.js";
import { readSse } from "./sse.js";

/** A chat message in OpenAI's shape (only the fields the agent loop reads are typed). */
export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
  [field: string]: unknown;
}

export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ChatChoice {
  index: number;
  message: ChatMessage;
  finish_reason: string | null;
  [field: string]: unknown;
}

export interface ChatCompletion {
  id?: string;
  object?: string;
  model?: string;
  choices: ChatChoice[];
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number; [field: string]: unknown };
  [field: string]: unknown;
}

/** A provider failure: unreachable, an error status, or an answer that is not a chat completion (502). */
export class ProviderError extends Error {
  readonly statusCode = 502;
  override name = "ProviderError";
}

/** A request agent mode cannot serve as sent (4xx), with a message saying what to change. */
export class AgentRequestError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = "AgentRequestError";
  }
}

/** The caller's own provider keys, as it sent them (never a virtual key). */
export interface CallerKeys {
  /** An `Authorization: Bearer` value. */
  bearer?: string;
  /** An `x-api-key` value (the Anthropic SDK's). */
  apiKey?: string;
}

/** The provider and the model name it knows, from `<provider>/<model>` or a bare model (the first provider). */
export function resolveModel(providers: readonly ProviderConfig[], model: string): { provider: ProviderConfig; model: string } {
  if (providers.length === 0) {
    throw new AgentRequestError(400, "agent mode needs a provider: add \"providers\": [{\"name\", \"base_url\", \"api_key\"}] to config.json");
  }
  const slash = model.indexOf("/");
  if (slash < 0) return { provider: providers[0]!, model };
  const name = model.slice(0, slash);
  const provider = providers.find((p) => p.name === name);
  if (!provider) throw new AgentRequestError(400, `model names an unknown provider '${name}' (configured: ${providers.map((p) => p.name).join(", ")})`);
  if (slash === model.length - 1) throw new AgentRequestError(400, `model '${model}' names no model after the provider`);
  return { provider, model: model.slice(slash + 1) };
}

/** The key to send this provider: its own, or with passthrough the caller's (a 401 when it sent none). */
export function providerKey(provider: ProviderConfig, caller: CallerKeys): string | undefined {
  if (provider.api_key !== PASSTHROUGH_KEY) return provider.api_key;
  const own = provider.type === "anthropic" ? (caller.apiKey ?? caller.bearer) : (caller.bearer ?? caller.apiKey);
  if (own === undefined) {
    const where = provider.type === "anthropic" ? "x-api-key (or Authorization: Bearer)" : "Authorization: Bearer";
    throw new AgentRequestError(401, `provider '${provider.name}' is sent the caller's own key (api_key: passthrough), and this request has none: send it as ${where}`);
  }
  return own;
}

export function shorten(text: string, max = 500): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/** One POST to the provider: the response, once its status is in (throws ProviderError when unreachable or not 2xx). */
export async function postToProvider(provider: ProviderConfig, path: string, headers: Record<string, string>, body: unknown, signal?: AbortSignal): Promise<Response> {
  const timeout = AbortSignal.timeout(provider.timeout_seconds * 1000);
  let response: Response;
  try {
    response = await fetch(`${provider.base_url}${path}`, {
      method: "POST",
      headers: { ...provider.headers, ...headers, "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (e) {
    if (signal?.aborted) throw signal.reason;
    const why = timeout.aborted ? `no answer within ${provider.timeout_seconds} s` : (((e as Error).cause as Error | undefined)?.message ?? (e as Error).message);
    throw new ProviderError(`provider '${provider.name}' could not be reached: ${why}`);
  }
  if (!response.ok) {
    const text = await response.text().catch(() => "");
    throw new ProviderError(`provider '${provider.name}' answered ${response.status}: ${shorten(errorMessageOf(text) ?? text)}`);
  }
  return response;
}

/** The message of an error body, in OpenAI's or Anthropic's shape (`{"error": {"message"}}`). */
export function errorMessageOf(text: string): string | undefined {
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } } | undefined)?.error?.message;
    return typeof message === "string" ? message : undefined;
  } catch {
    return undefined;
  }
}

function openAiHeaders(provider: ProviderConfig, caller: CallerKeys, accept: string): Record<string, string> {
  const key = providerKey(provider, caller);
  return { accept, ...(key !== undefined ? { authorization: `Bearer ${key}` } : {}) };
}

/** One chat completion request; throws ProviderError for anything but a usable answer. */
export async function chatCompletion(provider: ProviderConfig, body: Record<string, unknown>, signal?: AbortSignal, caller: CallerKeys = {}): Promise<ChatCompletion> {
  const response = await postToProvider(provider, "/chat/completions", openAiHeaders(provider, caller, "application/json"), body, signal);
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const completion = parsed as ChatCompletion | undefined;
  const message = completion?.choices?.[0]?.message;
  if (!completion || !Array.isArray(completion.choices) || typeof message !== "object" || message === null) {
    throw new ProviderError(`provider '${provider.name}' answered something that is not a chat completion: ${shorten(text)}`);
  }
  return completion;
}

/**
 * One streamed chat completion: each chunk is handed to `onChunk` as it arrives, and the chunks
 * assembled (content, tool-call deltas by index) are the answer. An error chunk mid-stream, or a
 * stream that ends before its finish_reason, is a ProviderError.
 */
export async function chatCompletionStream(
  provider: ProviderConfig,
  body: Record<string, unknown>,
  onChunk: (chunk: ChatChunk) => void,
  signal?: AbortSignal,
  caller: CallerKeys = {},
): Promise<ChatCompletion> {
  const response = await postToProvider(provider, "/chat/completions", openAiHeaders(provider, caller, "text/event-stream"), { ...body, stream: true }, signal);
  if (!response.body) throw new ProviderError(`provider '${provider.name}' answered a stream with no body`);
  const assembler = new ChatAssembler();
  try {
    for await (const { data } of readSse(response.body)) {
      if (data.trim() === "[DONE]") break;
      let chunk: ChatChunk & { error?: { message?: unknown } };
      try {
        chunk = JSON.parse(data);
      } catch {
        throw new ProviderError(`provider '${provider.name}' streamed something that is not JSON: ${shorten(data)}`);
      }
      if (chunk.error) throw new ProviderError(`provider '${provider.name}' failed mid-stream: ${String(chunk.error.message ?? JSON.stringify(chunk.error))}`);
      assembler.add(chunk);
      onChunk(chunk);
    }
  } catch (e) {
    if (signal?.aborted) throw signal.reason;
    if (e instanceof ProviderError) throw e;
    throw new ProviderError(`provider '${provider.name}' broke off its stream: ${(e as Error).message}`);
  }
  const completion = assembler.completion();
  if (completion.choices[0]!.finish_reason === null) throw new ProviderError(`provider '${provider.name}' ended its stream without a finish_reason`);
  return completion;
}
