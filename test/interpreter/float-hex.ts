// Floats across the CPython boundary as float.hex() text, so no digit is lost either way.

const view = new DataView(new ArrayBuffer(8));

/** Python's float.hex() of a double. */
export function floatHex(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const sign = bits >> 63n ? "-" : "";
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const fraction = (bits & 0xfffffffffffffn).toString(16).padStart(13, "0");
  if (exponent === 0) return (bits & 0x7fffffffffffffffn) === 0n ? `${sign}0x0.0p+0` : `${sign}0x0.${fraction}p-1022`;
  const e = exponent - 1023;
  return `${sign}0x1.${fraction}p${e < 0 ? "-" : "+"}${Math.abs(e)}`;
}

/** The double a float.hex() text stands for. */
export function fromHex(h: string): number {
  if (h === "nan") return NaN;
  if (h === "inf" || h === "-inf") return h === "inf" ? Infinity : -Infinity;
  const m = /^(-?)0x([01])\.([0-9a-f]+)p([+-]\d+)$/.exec(h)!;
  let value = Number(BigInt(`0x${m[2]}${m[3]}`));
  let e = Number(m[4]) - 4 * m[3]!.length;
  while (e !== 0) {
    const step = Math.max(-1000, Math.min(1000, e));
    value *= 2 ** step;
    e -= step;
  }
  return m[1] ? -value : value;
}
