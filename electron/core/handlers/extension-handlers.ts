// Contract handlers for extensions.*: the extension manager behind the contract.
import type { Handlers } from '../../../shared/contract';
import type { ExtensionManager } from '../extensions/extension-manager';
import { readManifest } from '../extensions/manifest';

type ExtensionHandlers = Pick<
  Handlers,
  | 'extensions.list'
  | 'extensions.install'
  | 'extensions.inspect'
  | 'extensions.enable'
  | 'extensions.disable'
  | 'extensions.restart'
  | 'extensions.remove'
  | 'extensions.grant'
  | 'extensions.revoke'
  | 'extensions.log'
>;

export function extensionHandlers(manager: ExtensionManager): ExtensionHandlers {
  return {
    'extensions.list': () => manager.list(),
    'extensions.install': ({ folder, grant }) => manager.installFromFolder(folder, { grant: grant ?? [] }),
    'extensions.inspect': ({ folder }) => {
      const { manifest } = readManifest(folder);
      return { id: manifest.id, name: manifest.name, version: manifest.version, description: manifest.description, requested: manifest.permissions };
    },
    'extensions.enable': ({ id }) => manager.enable(id),
    'extensions.disable': ({ id }) => manager.disable(id),
    'extensions.restart': ({ id }) => manager.restart(id),
    'extensions.remove': async ({ id }) => {
      await manager.remove(id);
      return { removed: true };
    },
    'extensions.grant': ({ id, permission }) => manager.grant(id, [permission]),
    'extensions.revoke': ({ id, permission }) => manager.revoke(id, [permission]),
    'extensions.log': ({ id }) => ({ lines: manager.getLogLines(id) }),
  };
}
