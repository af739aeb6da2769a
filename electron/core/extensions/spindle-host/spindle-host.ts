// The host side of `spindle.*`: each request a worker makes goes to the one place that answers its namespace.
import fs from 'node:fs';
import path from 'node:path';
import { HostFailure, type HostError } from '../../../../shared/errors';
import type { HostRequestMessage, LogLevel } from '../../../../shared/protocol';
import type { ExtensionPermission } from '../../../../shared/types/spindle';
import type { GenerationGate } from '../generation-gate';
import { ExtensionStorage } from './extension-storage';

/** The worker a request came from, and what it may do right now. */
export interface RequestOrigin {
  extensionId: string;
  respond(requestId: string, result: { ok: true; value: unknown } | { ok: false; error: HostError }): void;
  denyPermission(permission: ExtensionPermission, operation: string): void;
  /** Asked at the moment of each request: still this extension's running worker, with this permission. */
  allowed(permission: ExtensionPermission): boolean;
}

export interface SpindleHostOptions {
  /** `<data-dir>/extension-data`: one folder per extension. */
  dataRoot: string;
  generations: GenerationGate;
  log(extensionId: string, level: LogLevel, text: string): void;
}

/** Folders of an extension's data folder that belong to the host's areas; anything else predates them. */
const AREAS = { storage: 'storage', userStorage: 'user-local' } as const;

export class SpindleHost {
  private readonly storages = new Map<string, ExtensionStorage>();

  constructor(private readonly options: SpindleHostOptions) {}

  request(origin: RequestOrigin, message: HostRequestMessage): void {
    const { requestId, method, params } = message;
    const [namespace = '', name = ''] = method.split('.');
    if (namespace === 'generate' && (name === 'quiet' || name === 'raw')) {
      this.options.generations.request(origin.extensionId, origin, { requestId, kind: name, input: params }, () => origin.allowed('generation'));
      return;
    }
    if (namespace === 'storage' || namespace === 'userStorage') {
      this.answer(origin, requestId, method, () => this.storage(origin.extensionId, namespace).handle(name, params));
      return;
    }
    origin.respond(requestId, { ok: false, error: { code: 'UNSUPPORTED_HERE', message: `spindle.${method} is not available in the Council Workbench.` } });
  }

  cancel(origin: RequestOrigin, requestId: string): void {
    this.options.generations.cancel(origin.extensionId, origin, requestId);
  }

  /** Ends every request of an extension still running on the host (its worker stopped or lost a permission). */
  abortAll(extensionId: string, error: HostError): void {
    this.options.generations.abortAll(extensionId, error);
  }

  /** Every extension's requests (host shutdown). */
  dispose(error: HostError): void {
    this.options.generations.dispose(error);
  }

  /** The extension was removed: its storage objects go (its folder is the caller's to delete). */
  forget(extensionId: string): void {
    for (const key of [...this.storages.keys()]) if (key.startsWith(`${extensionId}\0`)) this.storages.delete(key);
  }

  private answer(origin: RequestOrigin, requestId: string, method: string, work: () => Promise<unknown>): void {
    void Promise.resolve()
      .then(work)
      .then(
        (value) => origin.respond(requestId, { ok: true, value: value ?? null }),
        (err: unknown) => {
          if (err instanceof HostFailure) return origin.respond(requestId, { ok: false, error: err.error });
          this.options.log(origin.extensionId, 'error', `spindle.${method} failed: ${(err as Error)?.message ?? String(err)}`);
          origin.respond(requestId, { ok: false, error: { code: 'INTERNAL', message: `spindle.${method} failed on the host.` } });
        },
      );
  }

  private storage(extensionId: string, area: keyof typeof AREAS): ExtensionStorage {
    const key = `${extensionId}\0${area}`;
    let storage = this.storages.get(key);
    if (!storage) {
      const folder = path.join(this.options.dataRoot, extensionId);
      const root = path.join(folder, AREAS[area]);
      if (area === 'storage') adoptEarlierFiles(folder, root);
      fs.mkdirSync(root, { recursive: true });
      storage = new ExtensionStorage(root);
      this.storages.set(key, storage);
    }
    return storage;
  }
}

/** Files an extension wrote straight into its data folder (before workers were contained) move into its storage. */
function adoptEarlierFiles(folder: string, root: string): void {
  if (fs.existsSync(root) || !fs.existsSync(folder)) return;
  const earlier = fs.readdirSync(folder).filter((name) => !Object.values(AREAS).includes(name as never));
  fs.mkdirSync(root, { recursive: true });
  for (const name of earlier) fs.renameSync(path.join(folder, name), path.join(root, name));
}
