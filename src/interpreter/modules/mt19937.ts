// The Mersenne Twister of CPython's _random module (MT19937, Matsumoto and Nishimura's reference
// algorithm), seeded as CPython seeds it, so that a script's seed gives the numbers CPython gives:
// init_by_array over the 32-bit words of the seed, least significant first; random() from two
// words (27 and 26 bits); getrandbits() from whole words, least significant first.
import { createHash, randomBytes } from "node:crypto";
import { normInt } from "../values.js";

const N = 624;
const M = 397;
const MATRIX_A = 0x9908b0df;
const UPPER = 0x80000000;
const LOWER = 0x7fffffff;

export class MersenneTwister {
  /** The 624 words, as int32 (V8 keeps those unboxed; the bits are the same). */
  readonly state = new Int32Array(N);
  /** The next word of `state` to give; N means the state must be regenerated first. */
  index = N + 1;

  private initGenrand(seed: number): void {
    const mt = this.state;
    let prev = (mt[0] = seed);
    for (let i = 1; i < N; i++) {
      mt[i] = Math.imul(1812433253, prev ^ (prev >>> 30)) + i;
      prev = mt[i]!;
    }
    this.index = N;
  }

  /** init_by_array: the state from a key of 32-bit words. */
  seedWords(key: ArrayLike<number>): void {
    const mt = this.state;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    // The word written last is the one the next step reads (mt[i - 1]), also across the wrap.
    let prev = mt[0]!;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      mt[i] = (mt[i]! ^ Math.imul(prev ^ (prev >>> 30), 1664525)) + key[j]! + j;
      prev = mt[i]!;
      i++;
      j++;
      if (i >= N) {
        mt[0] = prev;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      mt[i] = (mt[i]! ^ Math.imul(prev ^ (prev >>> 30), 1566083941)) - i;
      prev = mt[i]!;
      i++;
      if (i >= N) {
        mt[0] = prev;
        i = 1;
      }
    }
    // The most significant bit is 1: the state is never all zeros.
    mt[0] = -0x80000000;
  }

  /** Seeded from a non-negative int, as CPython's random_seed is: its words, least significant first. */
  seedInt(n: bigint): void {
    // From its hex digits, eight at a time from the right: linear in its size.
    const hex = n.toString(16);
    const words: number[] = [];
    for (let end = hex.length; end > 0; end -= 8) words.push(parseInt(hex.slice(Math.max(0, end - 8), end), 16));
    this.seedWords(words.length === 0 || n === 0n ? [0] : words);
  }

  /** Seeded from the system's entropy, as CPython's random_seed_urandom (N words). */
  seedRandomly(): void {
    const bytes = randomBytes(4 * N);
    this.seedWords(new Uint32Array(bytes.buffer, bytes.byteOffset, N));
  }

  /** The next 32-bit word (genrand_uint32), regenerating the state every N words. */
  next32(): number {
    const mt = this.state;
    if (this.index >= N) {
      let k = 0;
      for (; k < N - M; k++) {
        const y = (mt[k]! & UPPER) | (mt[k + 1]! & LOWER);
        mt[k] = mt[k + M]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
      }
      for (; k < N - 1; k++) {
        const y = (mt[k]! & UPPER) | (mt[k + 1]! & LOWER);
        mt[k] = mt[k + (M - N)]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
      }
      const y = (mt[N - 1]! & UPPER) | (mt[0]! & LOWER);
      mt[N - 1] = mt[M - 1]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
      this.index = 0;
    }
    let y = mt[this.index++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** A double in [0, 1) of 53 random bits: CPython's random_random. */
  random(): number {
    const a = this.next32() >>> 5;
    const b = this.next32() >>> 6;
    return (a * 67108864 + b) * (1 / 9007199254740992);
  }

  /** k random bits (k >= 0) as an int, built from words as CPython's getrandbits builds it. */
  bits(k: number): number | bigint {
    if (k === 0) return 0;
    if (k <= 32) return this.next32() >>> (32 - k);
    if (k <= 53) {
      const low = this.next32();
      return (this.next32() >>> (64 - k)) * 4294967296 + low;
    }
    // Hex digits, most significant word first: linear, where shifting word by word is not.
    const words = Math.ceil(k / 32);
    const hex: string[] = new Array(words);
    for (let i = 0; i < words; i++, k -= 32) {
      const r = k < 32 ? this.next32() >>> (32 - k) : this.next32();
      hex[words - 1 - i] = r.toString(16).padStart(8, "0");
    }
    return normInt(BigInt("0x" + hex.join("")));
  }
}

/**
 * The int that CPython's Random.seed (version 2) makes of a str or bytes seed: the bytes followed
 * by their SHA-512 digest, read as one big-endian number.
 */
export function bytesSeed(bytes: Uint8Array): bigint {
  const digest = createHash("sha512").update(bytes).digest();
  return BigInt("0x" + Buffer.concat([Buffer.from(bytes), digest]).toString("hex"));
}
