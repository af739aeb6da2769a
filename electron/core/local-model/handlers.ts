// Contract handlers for models.*: the local model library.
import type { Handlers } from '../../../shared/contract';
import type { ProbeCards } from '../connections/probe-cards';
import type { LocalModels } from './local-models';

type ModelHandlerNames = Extract<keyof Handlers, `models.${string}`>;

export function localModelHandlers(models: LocalModels, probes: ProbeCards): Pick<Handlers, ModelHandlerNames> {
  return {
    'models.list': () => models.library.list(),
    'models.add': ({ path }) => models.library.addFile(path),
    'models.remove': ({ id }) => models.library.remove(id),
    'models.pull': ({ source, sha256, wait }) => models.downloads.pull(source, sha256, wait === true),
    'models.downloads': () => models.downloads.list(),
    'models.pause': ({ id }) => models.downloads.pause(id),
    'models.resume': ({ id }) => models.downloads.resume(id),
    'models.cancel': ({ id }) => models.downloads.cancel(id),
    'models.probe': ({ connectionId, model, maxTokens }) => probes.probe(connectionId, model, maxTokens),
    'models.probes': () => probes.list(),
  };
}
