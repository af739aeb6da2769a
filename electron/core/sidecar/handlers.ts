// Contract handlers for sidecar.*: the sidecar LLM's settings and whether they are usable.
import type { Handlers } from '../../../shared/contract';
import type { SidecarService } from './sidecar-service';

export function sidecarHandlers(sidecar: SidecarService): Pick<Handlers, 'sidecar.get' | 'sidecar.update'> {
  return {
    'sidecar.get': () => sidecar.state(),
    'sidecar.update': ({ patch }) => sidecar.update(patch),
  };
}
