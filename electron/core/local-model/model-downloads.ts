// The host's downloads of local models: each runs in the background and reports as models.download events; pause
// keeps what arrived, resume continues it with a Range request, cancel deletes it. A finished file joins the library.
import { randomUUID } from 'node:crypto';
import { HostFailure, type HostError } from '../../../shared/errors';
import type { ModelDownload } from '../../../shared/types/local-models';
import type { ModelLibrary } from './model-library';
import { discardDownload, downloadModel, resolveSource, type DownloadDeps } from './model-download';

interface Running {
  view: ModelDownload;
  sha256: string | undefined;
  controller: AbortController | null;
  done: Promise<ModelDownload>;
}

export interface ModelDownloadsOptions {
  library: ModelLibrary;
  emit(download: ModelDownload): void;
  /** Test seams for the downloader (fetch, free space, clock, HF_ENDPOINT). */
  deps?: Omit<DownloadDeps, 'folder'>;
}

export class ModelDownloads {
  private readonly downloads = new Map<string, Running>();

  constructor(private readonly options: ModelDownloadsOptions) {}

  list(): ModelDownload[] {
    return [...this.downloads.values()].map((d) => d.view);
  }

  /** Starts a download; `wait` answers when it has ended (done, failed or paused). */
  async pull(source: string, sha256: string | undefined, wait = false): Promise<ModelDownload> {
    const running = [...this.downloads.values()].find((d) => d.view.source === source && d.view.state === 'running');
    if (running) throw new HostFailure({ code: 'CONFLICT', message: `${source} is already downloading.`, path: '/source' });
    // A source that names no .gguf over http(s) is refused here, where it was given, not as a failed download.
    resolveSource(source, this.options.deps?.env);
    const id = randomUUID();
    const entry: Running = { view: { id, source, state: 'running', bytesDone: 0, totalBytes: null, bytesPerSecond: 0, secondsLeft: null }, sha256, controller: null, done: Promise.resolve(null as never) };
    this.downloads.set(id, entry);
    this.run(entry);
    return wait ? entry.done : entry.view;
  }

  pause(id: string): ModelDownload {
    const entry = this.get(id);
    if (entry.view.state === 'running') entry.controller?.abort();
    return entry.view;
  }

  async resume(id: string): Promise<ModelDownload> {
    const entry = this.get(id);
    if (entry.view.state === 'running' || entry.view.state === 'done') return entry.view;
    await entry.done;
    this.run(entry);
    return entry.view;
  }

  async cancel(id: string): Promise<{ cancelled: boolean }> {
    const entry = this.get(id);
    if (entry.view.state === 'done') return { cancelled: false };
    entry.controller?.abort();
    await entry.done;
    discardDownload(entry.view.source, this.options.library.folder, this.options.deps?.env);
    this.downloads.delete(id);
    return { cancelled: true };
  }

  /** Pauses every download (the host is stopping: their parts stay for a resume). */
  async dispose(): Promise<void> {
    for (const entry of this.downloads.values()) entry.controller?.abort();
    await Promise.allSettled([...this.downloads.values()].map((d) => d.done));
  }

  private get(id: string): Running {
    const entry = this.downloads.get(id);
    if (!entry) throw new HostFailure({ code: 'NOT_FOUND', message: `No download ${id}.`, path: '/id' });
    return entry;
  }

  private update(entry: Running, patch: Partial<ModelDownload>): void {
    entry.view = { ...entry.view, ...patch };
    if (patch.state !== 'failed') delete entry.view.error;
    this.options.emit(entry.view);
  }

  private run(entry: Running): void {
    const controller = new AbortController();
    entry.controller = controller;
    this.update(entry, { state: 'running' });
    const { library } = this.options;
    entry.done = downloadModel({ source: entry.view.source, ...(entry.sha256 ? { sha256: entry.sha256 } : {}) }, { ...this.options.deps, folder: library.folder }, (p) => this.update(entry, p), controller.signal)
      .then(async (result) => {
        const model = await library.addFile(result.file, { kind: 'download', url: result.url, sha256: result.sha256 });
        this.update(entry, { state: 'done', modelId: model.id, bytesDone: result.sizeBytes, totalBytes: result.sizeBytes, secondsLeft: 0 });
        return entry.view;
      })
      .catch((error: unknown) => {
        const host: HostError = error instanceof HostFailure ? error.error : { code: 'DOWNLOAD_FAILED', message: error instanceof Error ? error.message : String(error) };
        if (controller.signal.aborted) this.update(entry, { state: 'paused' });
        else this.update(entry, { state: 'failed', error: host });
        return entry.view;
      })
      .finally(() => {
        if (entry.controller === controller) entry.controller = null;
      });
  }
}
