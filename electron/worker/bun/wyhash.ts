// Wyhash (final version 4), the 64-bit hash behind Bun.hash: Zig's standard library implementation, which Bun
// uses, written again for BigInt. Checked against the reference test vectors (wyhash's test_vector.cpp).
const MASK = (1n << 64n) - 1n;
const SECRET = [0xa0761d6478bd642fn, 0xe7037ed1a0b428dbn, 0x8ebc6af09c88c6e3n, 0x589965cc75374cc3n] as const;

function mum(a: bigint, b: bigint): [bigint, bigint] {
  const x = a * b;
  return [x & MASK, (x >> 64n) & MASK];
}

function mix(a: bigint, b: bigint): bigint {
  const [lo, hi] = mum(a, b);
  return lo ^ hi;
}

function read(bytes: Uint8Array, at: number, size: 4 | 8): bigint {
  let value = 0n;
  for (let i = size - 1; i >= 0; i--) value = (value << 8n) | BigInt(bytes[at + i]!);
  return value;
}

export function wyhash(input: Uint8Array, seed: bigint = 0n): bigint {
  const seed64 = seed & MASK;
  const state = [0n, 0n, 0n];
  state[0] = seed64 ^ mix(seed64 ^ SECRET[0], SECRET[1]);
  state[1] = state[0];
  state[2] = state[0];
  const length = input.length;
  let a: bigint;
  let b: bigint;
  if (length <= 16) {
    if (length >= 4) {
      const end = length - 4;
      const quarter = (length >> 3) << 2;
      a = (read(input, 0, 4) << 32n) | read(input, quarter, 4);
      b = (read(input, end, 4) << 32n) | read(input, end - quarter, 4);
    } else if (length > 0) {
      a = (BigInt(input[0]!) << 16n) | (BigInt(input[length >> 1]!) << 8n) | BigInt(input[length - 1]!);
      b = 0n;
    } else {
      a = 0n;
      b = 0n;
    }
  } else {
    let i = 0;
    if (length >= 48) {
      for (; i + 48 < length; i += 48) {
        for (let lane = 0; lane < 3; lane++) {
          state[lane] = mix(read(input, i + 16 * lane, 8) ^ SECRET[lane + 1]!, read(input, i + 16 * lane + 8, 8) ^ state[lane]!);
        }
      }
      state[0] = state[0]! ^ state[1]! ^ state[2]!;
    }
    for (; i + 16 < length; i += 16) state[0] = mix(read(input, i, 8) ^ SECRET[1], read(input, i + 8, 8) ^ state[0]!);
    a = read(input, length - 16, 8);
    b = read(input, length - 8, 8);
  }
  a ^= SECRET[1];
  b ^= state[0]!;
  [a, b] = mum(a, b);
  return mix(a ^ SECRET[0] ^ BigInt(length), b ^ SECRET[1]);
}
