// The built-in local models as the host uses them: the library names the files, the engine runs them. A local
// connection's model is a library id; a generation resolves it to its file and the engine loads it when needed.
import { HostFailure, type Result } from '../../../shared/errors';
import type { ModelFit } from '../../../shared/local-model/engine-contract';
import { resolveSource } from './model-download';
import type { Logger } from '../ports';
import { engineSourceEntry, nodeEngineLauncher, type EngineLauncher } from './engine-launcher';
import type { LocalGenerate } from '../llm/local-language-model';
import { LocalEngine } from './local-engine';
import { ModelLibrary, type HeaderReader } from './model-library';
import { ModelDownloads, type ModelDownloadsOptions } from './model-downloads';
import type { ModelDownload } from '../../../shared/types/local-models';

export interface LocalModelsOptions {
  dataDir: string;
  log: Logger;
  /** The engine's script (built: out/…/engine.js); default its source, run through tsx. */
  engineEntry?: string;
  launch?: EngineLauncher;
  idleMs?: number;
  readHeader?: HeaderReader;
  /** Hears each download's progress and end (the host's models.download event). */
  onDownload?: (download: ModelDownload) => void;
  downloadDeps?: ModelDownloadsOptions['deps'];
}

export class LocalModels {
  readonly library: ModelLibrary;
  readonly engine: LocalEngine;
  readonly downloads: ModelDownloads;

  constructor(options: LocalModelsOptions) {
    this.library = new ModelLibrary(options.dataDir, options.readHeader);
    this.downloads = new ModelDownloads({ library: this.library, emit: options.onDownload ?? (() => undefined), ...(options.downloadDeps ? { deps: options.downloadDeps } : {}) });
    this.engine = new LocalEngine({
      entry: options.engineEntry ?? engineSourceEntry(),
      launch: options.launch ?? nodeEngineLauncher,
      log: options.log,
      ...(options.idleMs !== undefined ? { idleMs: options.idleMs } : {}),
    });
  }

  /** The ids a local connection may name. */
  ids(): string[] {
    return this.library.list().map((m) => m.id);
  }

  readonly generate: LocalGenerate = async (modelId, params, options) => {
    let file: string;
    try {
      const model = this.library.get(modelId);
      if (model.missing) return loadFailed(`The file of the local model ${modelId} is gone (${model.file}).`);
      file = model.file;
    } catch (error) {
      if (error instanceof HostFailure) return loadFailed(`There is no local model ${modelId} in the library.`);
      throw error;
    }
    return this.engine.generate(file, params, options);
  };

  /** The fit verdict for a file on disk, a URL or an hf: reference. */
  async fit(source: string): Promise<ModelFit> {
    const where = /^(https?:|hf:|huggingface:)/i.test(source.trim()) ? resolveSource(source).url : source;
    const result = await this.engine.fit(where);
    if (!result.ok) throw new HostFailure(result.error);
    return result.value;
  }

  async dispose(): Promise<void> {
    this.engine.dispose();
    await this.downloads.dispose();
  }
}

function loadFailed(message: string): Result<never> {
  return { ok: false, error: { code: 'LLM_MODEL_LOAD_FAILED', message, hint: 'See the local models in Connections, or with: models list' } };
}
