// Downloads one GGUF into the models folder: under a temporary name, resumed with a Range request when a part is
// already there (a dropped connection, a restart, a pause), its SHA-256 checked (given, or Hugging Face's LFS id), and
// only then moved into place. A failed check or a cancel leaves nothing behind; the free space is checked first.
import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { HostFailure } from '../../../shared/errors';
import type { Clock } from '../ports';

export interface DownloadProgress {
  bytesDone: number;
  /** null while the server has not said. */
  totalBytes: number | null;
  bytesPerSecond: number;
  /** null while it cannot be told. */
  secondsLeft: number | null;
}

export interface DownloadRequest {
  /** An http(s) URL, or `hf:<owner>/<repo>/<file>.gguf` (also `hf://`, `huggingface:`). */
  source: string;
  /** The file's expected SHA-256 (hex); absent: Hugging Face's LFS id when the server gives one. */
  sha256?: string;
}

export interface DownloadDeps {
  folder: string;
  fetch?: typeof fetch;
  /** HF_ENDPOINT / MODEL_ENDPOINT, as Hugging Face's own tools read them. */
  env?: Record<string, string | undefined>;
  /** Free bytes where the folder is (a test gives a full disk). */
  freeBytes?: (folder: string) => number;
  clock?: Clock;
}

export interface DownloadResult {
  file: string;
  sizeBytes: number;
  sha256: string;
  url: string;
  /** Bytes that were already there and not fetched again. */
  resumedFrom: number;
}

const HF = /^(?:hf:\/\/|hf:|huggingface:)([^/]+)\/([^/]+)\/(.+\.gguf)$/i;
const HEX64 = /^[0-9a-f]{64}$/;
/** Space kept free beyond the file: a disk filled to the last byte breaks everything else. */
const HEADROOM = 64 * 1024 * 1024;

const failure = (code: string, message: string, hint?: string): HostFailure => new HostFailure({ code, message, ...(hint ? { hint } : {}) });

/** The URL a source names; Hugging Face references resolve against HF_ENDPOINT (default huggingface.co). */
export function resolveSource(source: string, env: Record<string, string | undefined> = process.env): { url: string; fileName: string } {
  const hf = HF.exec(source.trim());
  if (hf) {
    const endpoint = (env.MODEL_ENDPOINT || env.HF_ENDPOINT || 'https://huggingface.co').replace(/\/+$/, '');
    const [, owner, repo, file] = hf as unknown as [string, string, string, string];
    return { url: `${endpoint}/${owner}/${repo}/resolve/main/${file.split('/').map(encodeURIComponent).join('/')}`, fileName: path.basename(file) };
  }
  let url: URL;
  try {
    url = new URL(source.trim());
  } catch {
    throw new HostFailure({ code: 'INVALID_INPUT', message: 'The source is neither a URL nor an hf:<owner>/<repo>/<file>.gguf reference.', path: '/source' });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new HostFailure({ code: 'INVALID_INPUT', message: `Downloads use http or https, not ${url.protocol}`, path: '/source' });
  const fileName = decodeURIComponent(url.pathname.split('/').pop() ?? '');
  if (!fileName.toLowerCase().endsWith('.gguf')) throw new HostFailure({ code: 'INVALID_INPUT', message: 'The URL does not name a .gguf file.', path: '/source' });
  return { url: url.toString(), fileName };
}

/** The file name a download is kept under: its own, made safe. */
function safeName(fileName: string): string {
  const clean = fileName.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '');
  return clean.toLowerCase().endsWith('.gguf') && clean.length > 5 ? clean : 'model.gguf';
}

const defaultFreeBytes = (folder: string) => {
  const stats = fs.statfsSync(folder);
  return stats.bavail * stats.bsize;
};

/** Hashes what is already in the part file (a resume goes on from there). */
async function hashExisting(part: string, hash: Hash): Promise<number> {
  let size = 0;
  try {
    for await (const chunk of fs.createReadStream(part)) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return size;
}

function expectedHash(request: DownloadRequest, headers: Headers): string | null {
  if (request.sha256) return request.sha256.toLowerCase();
  // Hugging Face sends an LFS file's SHA-256 as its linked ETag.
  const linked = (headers.get('x-linked-etag') ?? '').replace(/^W\//, '').replace(/"/g, '').toLowerCase();
  return HEX64.test(linked) ? linked : null;
}

/**
 * Downloads `request` into `deps.folder`; `signal` pauses (the part stays, a later call resumes it) — `cancel` also
 * removes the part. Throws HostFailure: DOWNLOAD_FAILED, DOWNLOAD_CHECKSUM_MISMATCH, DISK_FULL, CANCELLED, CONFLICT.
 */
export async function downloadModel(request: DownloadRequest, deps: DownloadDeps, onProgress: (progress: DownloadProgress) => void, signal?: AbortSignal): Promise<DownloadResult> {
  if (request.sha256 !== undefined && !HEX64.test(request.sha256.toLowerCase())) throw new HostFailure({ code: 'INVALID_INPUT', message: 'The SHA-256 must be 64 hexadecimal characters.', path: '/sha256' });
  const { url, fileName } = resolveSource(request.source, deps.env);
  fs.mkdirSync(deps.folder, { recursive: true });
  const target = path.join(deps.folder, safeName(fileName));
  if (fs.existsSync(target)) throw failure('CONFLICT', `${path.basename(target)} is already in the models folder.`, 'Remove that model first, or use it as it is.');
  const part = `${target}.part`;
  const hash = createHash('sha256');
  const already = await hashExisting(part, hash);
  const doFetch = deps.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(url, { headers: already > 0 ? { range: `bytes=${already}-` } : {}, redirect: 'follow', ...(signal ? { signal } : {}) });
  } catch (error) {
    if (signal?.aborted) throw failure('CANCELLED', 'The download was paused.');
    throw failure('DOWNLOAD_FAILED', `Could not reach ${new URL(url).host}: ${error instanceof Error ? error.message : String(error)}`, 'Check the address and the network; a later try resumes.');
  }
  let offset = already;
  if (response.status === 200 && already > 0) {
    // The server ignored the Range: start over.
    fs.rmSync(part, { force: true });
    offset = 0;
  } else if (response.status === 206 && !new RegExp(`^bytes ${already}-`).test(response.headers.get('content-range') ?? '')) {
    await response.body?.cancel();
    throw failure('DOWNLOAD_FAILED', 'The server resumed from another place than asked.', 'Cancel the download and start it again.');
  } else if (response.status === 416 && already > 0) {
    throw failure('DOWNLOAD_FAILED', 'The server says the part already downloaded is not part of this file.', 'Cancel the download and start it again.');
  } else if (response.status !== 200 && response.status !== 206) {
    throw failure('DOWNLOAD_FAILED', `The server answered ${response.status} for ${url}.`, response.status === 404 ? 'Check the file name (case matters on Hugging Face).' : response.status === 401 || response.status === 403 ? 'The model may need you to accept its licence or sign in on Hugging Face.' : undefined);
  }
  const fileHash = offset === 0 ? createHash('sha256') : hash;
  const length = Number(response.headers.get('content-length') ?? NaN);
  const totalBytes = Number.isFinite(length) ? offset + length : null;
  const expected = expectedHash(request, response.headers);
  const free = (deps.freeBytes ?? defaultFreeBytes)(deps.folder);
  if (totalBytes !== null && free < totalBytes - offset + HEADROOM) {
    await response.body?.cancel();
    throw failure('DISK_FULL', `The model needs ${Math.ceil((totalBytes - offset) / 1024 / 1024)} MB and ${Math.floor(free / 1024 / 1024)} MB are free.`, 'Free some space, or download a smaller model.');
  }
  const clock = deps.clock ?? { now: () => Date.now() };
  const started = clock.now();
  let received = offset;
  let lastReport = 0;
  const report = (force: boolean) => {
    const now = clock.now();
    if (!force && now - lastReport < 250) return;
    lastReport = now;
    const seconds = Math.max(0.001, (now - started) / 1000);
    const rate = (received - offset) / seconds;
    onProgress({ bytesDone: received, totalBytes, bytesPerSecond: Math.round(rate), secondsLeft: totalBytes !== null && rate > 0 ? Math.round((totalBytes - received) / rate) : null });
  };
  const out = fs.createWriteStream(part, { flags: offset === 0 ? 'w' : 'a' });
  const closed = new Promise<void>((resolve, reject) => out.on('close', resolve).on('error', reject));
  try {
    if (!response.body) throw new Error('the response has no body');
    const reader = response.body.getReader();
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      fileHash.update(next.value);
      received += next.value.length;
      if (!out.write(next.value)) await new Promise<void>((resolve) => out.once('drain', resolve));
      report(false);
    }
  } catch (error) {
    out.end();
    await closed.catch(() => undefined);
    if (signal?.aborted) throw failure('CANCELLED', 'The download was paused.');
    throw failure('DOWNLOAD_FAILED', `The connection dropped after ${received} bytes: ${error instanceof Error ? error.message : String(error)}`, 'Try again: it resumes from what arrived.');
  }
  out.end();
  await closed;
  report(true);
  if (totalBytes !== null && received !== totalBytes) throw failure('DOWNLOAD_FAILED', `The server sent ${received} of ${totalBytes} bytes.`, 'Try again: it resumes from what arrived.');
  const sha256 = fileHash.digest('hex');
  if (expected && sha256 !== expected) {
    fs.rmSync(part, { force: true });
    throw failure('DOWNLOAD_CHECKSUM_MISMATCH', `The file's SHA-256 is ${sha256}, not ${expected}: it was not kept.`, 'The file on the server changed or was damaged on the way; download it again.');
  }
  fs.renameSync(part, target);
  return { file: target, sizeBytes: received, sha256, url, resumedFrom: offset };
}

/** Removes what a download left (its part file). */
export function discardDownload(source: string, folder: string, env?: Record<string, string | undefined>): void {
  const { fileName } = resolveSource(source, env);
  fs.rmSync(`${path.join(folder, safeName(fileName))}.part`, { force: true });
}
