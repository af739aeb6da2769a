// Contract handlers for models.*: the local model library.
import fs from 'node:fs';
import type { Handlers } from '../../../shared/contract';
import type { CatalogEntry } from '../../../shared/types/local-models';
import { resourceFile } from '../util/resource-file';
import type { LocalModels } from './local-models';

/** models.probe and models.probes are the probe's (electron/core/probe/handlers.ts). */
type ModelHandlerNames = Exclude<Extract<keyof Handlers, `models.${string}`>, 'models.probe' | 'models.probes'>;

export function localModelHandlers(models: LocalModels): Pick<Handlers, ModelHandlerNames> {
  return {
    'models.list': () => models.library.list(),
    'models.add': ({ path }) => models.library.addFile(path),
    'models.remove': ({ id }) => models.library.remove(id),
    'models.pull': ({ source, sha256, wait }) => models.downloads.pull(source, sha256, wait === true),
    'models.downloads': () => models.downloads.list(),
    'models.pause': ({ id }) => models.downloads.pause(id),
    'models.resume': ({ id }) => models.downloads.resume(id),
    'models.cancel': ({ id }) => models.downloads.cancel(id),
    'models.fit': ({ source }) => models.fit(source),
    'models.suggested': () => (JSON.parse(fs.readFileSync(resourceFile(import.meta.url, 'local-models', 'catalog.json'), 'utf8')) as { models: CatalogEntry[] }).models,
  };
}
