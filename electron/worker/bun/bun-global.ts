// A `Bun` global for extensions published for Lumiverse, which runs them on Bun: what published bundles
// call, each backed by Node (hashing, compression, sleeping, files within the extension's rules). Any
// other member is present and answers UNSUPPORTED_HERE (logged once), so a bundle that touches Bun at
// load never dies of a TypeError.
import type { Hash, Hmac } from 'node:crypto';
const { fileURLToPath, pathToFileURL } = process.getBuiltinModule('node:url');
const { inspect, isDeepStrictEqual } = process.getBuiltinModule('node:util');
import { bunFile, type FileRules } from './bun-file';
import { wyhash } from './wyhash';

// Loaded at first use: crypto and zlib cost every worker about 3 MB of resident memory, and most extensions
// never hash or compress through Bun.
const nodeCrypto = () => process.getBuiltinModule('node:crypto');
const zlib = () => process.getBuiltinModule('node:zlib');

/** The Bun line the Workbench answers to `Bun.version` (what Lumiverse 1.1 runs on). */
export const BUN_COMPAT_VERSION = '1.3.0';

type Data = string | ArrayBufferView | ArrayBuffer;

function bytes(data: Data): Uint8Array {
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/** Bun's algorithm names where Node's differ. */
const NODE_ALGORITHM: Record<string, string> = { blake2b512: 'blake2b512', blake2s256: 'blake2s256', 'sha512-256': 'sha512-256', 'sha512-224': 'sha512-224' };

/** Bun.CryptoHasher on node:crypto: update() chains, digest() resets a plain hasher, an HMAC is used once. */
class CryptoHasher {
  readonly algorithm: string;
  private hash: Hash | Hmac;

  constructor(
    algorithm: string,
    private readonly hmacKey?: Data,
  ) {
    this.algorithm = algorithm;
    this.hash = this.fresh();
  }

  private fresh(): Hash | Hmac {
    const name = NODE_ALGORITHM[this.algorithm] ?? this.algorithm;
    return this.hmacKey === undefined ? nodeCrypto().createHash(name) : nodeCrypto().createHmac(name, bytes(this.hmacKey));
  }

  update(data: Data, encoding?: BufferEncoding): this {
    this.hash.update(typeof data === 'string' ? Buffer.from(data, encoding ?? 'utf8') : bytes(data));
    return this;
  }

  digest(encoding?: BufferEncoding | Uint8Array): Buffer | string | Uint8Array {
    const out = this.hash.digest();
    if (this.hmacKey === undefined) this.hash = this.fresh();
    if (encoding instanceof Uint8Array) {
      encoding.set(out.subarray(0, encoding.byteLength));
      return encoding;
    }
    return encoding ? out.toString(encoding) : out;
  }

  copy(): CryptoHasher {
    if (this.hmacKey !== undefined) throw Object.assign(new Error('Bun.CryptoHasher: an HMAC cannot be copied here.'), { code: 'UNSUPPORTED_HERE' });
    const copy = Object.create(CryptoHasher.prototype) as CryptoHasher;
    Object.assign(copy, { algorithm: this.algorithm, hmacKey: undefined, hash: (this.hash as Hash).copy() });
    return copy;
  }

  static hash(algorithm: string, input: Data, encoding?: BufferEncoding | Uint8Array): Buffer | string | Uint8Array {
    return new CryptoHasher(algorithm).update(input).digest(encoding);
  }

  static readonly algorithms = ['blake2b512', 'blake2s256', 'md4', 'md5', 'ripemd160', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'sha512-224', 'sha512-256', 'sha3-224', 'sha3-256', 'sha3-384', 'sha3-512', 'shake128', 'shake256'];
}

/** Bun.SHA256 and its kin: `new Bun.SHA256()` is a CryptoHasher of one algorithm; `Bun.SHA256.hash(data)` hashes at once. */
function fixedHasher(algorithm: string): object {
  function Fixed(): CryptoHasher {
    return new CryptoHasher(algorithm);
  }
  Fixed.hash = (input: Data, encoding?: BufferEncoding | Uint8Array) => CryptoHasher.hash(algorithm, input, encoding);
  return Fixed;
}

interface ZlibOptions {
  level?: number;
  memLevel?: number;
  windowBits?: number;
  strategy?: number;
}

/** Bun's deflate is raw (no zlib header) unless windowBits asks for zlib (9..15) or gzip (25..31). */
function deflate(data: Data, options: ZlibOptions = {}): Uint8Array {
  const { windowBits, ...rest } = options;
  if (windowBits !== undefined && windowBits >= 25) return new Uint8Array(zlib().gzipSync(bytes(data), { ...rest, windowBits: windowBits - 16 }));
  if (windowBits !== undefined && windowBits > 0) return new Uint8Array(zlib().deflateSync(bytes(data), { ...rest, windowBits }));
  return new Uint8Array(zlib().deflateRawSync(bytes(data), { ...rest, ...(windowBits ? { windowBits: -windowBits } : {}) }));
}

function inflate(data: Data, options: ZlibOptions = {}): Uint8Array {
  const windowBits = options.windowBits;
  if (windowBits !== undefined && windowBits >= 25) return new Uint8Array(zlib().gunzipSync(bytes(data)));
  if (windowBits !== undefined && windowBits >= 0) return new Uint8Array(zlib().inflateSync(bytes(data)));
  return new Uint8Array(zlib().inflateRawSync(bytes(data)));
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };

export interface BunGlobalOptions extends FileRules {
  /** The extension's entry (Bun.main). */
  main: string;
  /** Says, once per member, that something Bun has is not here. */
  unsupported(member: string): void;
}

export function createBunGlobal(options: BunGlobalOptions): object {
  const files = bunFile(options);
  const started = process.hrtime.bigint();
  const hash = Object.assign((data: Data, seed: number | bigint = 0) => wyhash(bytes(data), BigInt(seed)), {
    wyhash: (data: Data, seed: number | bigint = 0) => wyhash(bytes(data), BigInt(seed)),
    crc32: (data: Data, seed = 0) => zlib().crc32(bytes(data), seed),
  });
  const members: Record<string, unknown> = {
    version: BUN_COMPAT_VERSION,
    revision: '',
    main: options.main,
    env: process.env,
    argv: process.argv,
    hash,
    CryptoHasher,
    MD5: fixedHasher('md5'),
    SHA1: fixedHasher('sha1'),
    SHA224: fixedHasher('sha224'),
    SHA256: fixedHasher('sha256'),
    SHA384: fixedHasher('sha384'),
    SHA512: fixedHasher('sha512'),
    SHA512_256: fixedHasher('sha512-256'),
    deflateSync: deflate,
    inflateSync: inflate,
    gzipSync: (data: Data, opts: ZlibOptions = {}) => new Uint8Array(zlib().gzipSync(bytes(data), opts)),
    gunzipSync: (data: Data) => new Uint8Array(zlib().gunzipSync(bytes(data))),
    file: files.file,
    write: files.write,
    sleep: (ms: number | Date) => new Promise<void>((resolve) => setTimeout(resolve, ms instanceof Date ? Math.max(0, ms.getTime() - Date.now()) : Math.max(0, Number(ms) || 0))),
    sleepSync: (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(0, Number(ms) || 0)) && undefined,
    nanoseconds: () => Number(process.hrtime.bigint() - started),
    escapeHTML: (value: unknown) => String(value).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!),
    deepEquals: (a: unknown, b: unknown) => isDeepStrictEqual(a, b),
    inspect: (value: unknown) => inspect(value),
    fileURLToPath: (url: string | URL) => fileURLToPath(url),
    pathToFileURL: (file: string) => pathToFileURL(file),
    gc: () => undefined,
    peek: (value: unknown) => value,
    which: () => null,
  };
  const refuse = (name: string): never => {
    options.unsupported(name);
    throw Object.assign(new Error(`Bun.${name} is not available in the Council Workbench (extensions run on Node here).`), { code: 'UNSUPPORTED_HERE' });
  };
  // A member this layer lacks, and whatever is reached through it (`Bun.password.hash`, `new Bun.Glob()`):
  // present, so loading never fails on a TypeError; calling or constructing it refuses.
  const unsupportedMember = (name: string): unknown =>
    new Proxy(function unsupportedBunMember() {}, {
      get: (target, key) => {
        if (typeof key !== 'string' || key === 'then' || key === 'toJSON') return undefined;
        // A function's own members (name, call, toString…) stay what they are, for whoever inspects it.
        return key in target ? Reflect.get(target, key) : unsupportedMember(`${name}.${key}`);
      },
      apply: () => refuse(name),
      construct: () => refuse(name),
    });
  return new Proxy(members, {
    get(target, name) {
      if (typeof name !== 'string') return undefined;
      if (name in target) return target[name];
      // Not thenable: `await Bun` must not call anything.
      if (name === 'then' || name === 'toJSON') return undefined;
      return unsupportedMember(name);
    },
    has: (target, name) => typeof name === 'string' && name in target,
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
}
