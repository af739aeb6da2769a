// Contract handlers for extensions.*: the extension manager behind the contract.
import type { Handlers } from '../../../shared/contract';
import { inertPermissions, PERMISSIONS_NOT_AVAILABLE_HERE, type ExtensionManifest } from '../../../shared/types/spindle';
import { fromBase64 } from '../util/base64';
import type { ExtensionManager } from './extension-manager';
import type { InstallOptions } from './extension-types';
import { formatLogEntry, LOG_MAX_LINES } from './extension-log';

type ExtensionHandlers = Pick<
  Handlers,
  | 'extensions.list'
  | 'extensions.install'
  | 'extensions.inspect'
  | 'extensions.inspectUpload'
  | 'extensions.installUpload'
  | 'extensions.enable'
  | 'extensions.disable'
  | 'extensions.restart'
  | 'extensions.remove'
  | 'extensions.grant'
  | 'extensions.revoke'
  | 'extensions.log'
  | 'extensions.trust'
  | 'extensions.frontend'
  | 'extensions.sendFrontend'
  | 'extensions.runCommand'
  | 'extensions.dialogAnswer'
  | 'extensions.dialogs'
  | 'extensions.pageRequest'
  | 'extensions.image'
  | 'extensions.frontendCall'
>;

/** What an extension asks for, from its manifest, as the install form shows it. */
function inspected(manifest: ExtensionManifest) {
  return {
    id: manifest.id,
    name: manifest.name,
    version: manifest.version,
    description: manifest.description,
    requested: manifest.permissions,
    notAvailable: manifest.permissions.filter((p) => PERMISSIONS_NOT_AVAILABLE_HERE.includes(p)),
    answeredEmpty: inertPermissions(manifest.permissions).answeredEmpty,
  };
}

/** What an install call asks for, as the manager takes it (absent flags stay absent). */
function installOptions(how: { grant?: InstallOptions['grant']; trust?: boolean; replace?: boolean }): InstallOptions {
  return { grant: how.grant ?? [], ...(how.trust ? { trust: true } : {}), ...(how.replace ? { replace: true } : {}) };
}

const uploaded = (upload: { fileName: string; data: string }) => ({ fileName: upload.fileName, bytes: fromBase64(upload.data, '/upload/data') });

export function extensionHandlers(manager: ExtensionManager): ExtensionHandlers {
  return {
    'extensions.list': () => manager.list(),
    'extensions.install': ({ folder, ...how }) => manager.install(folder, installOptions(how)),
    'extensions.trust': ({ id, trusted }) => manager.setTrusted(id, trusted),
    'extensions.inspect': async ({ folder }) => inspected((await manager.inspect(folder)).manifest),
    'extensions.inspectUpload': ({ upload }) => manager.withUpload(uploaded(upload), async (zip) => inspected((await manager.inspect(zip)).manifest)),
    'extensions.installUpload': ({ upload, ...how }) => manager.withUpload(uploaded(upload), (zip) => manager.install(zip, installOptions(how))),
    'extensions.enable': ({ id }) => manager.enable(id),
    'extensions.disable': ({ id }) => manager.disable(id),
    'extensions.restart': ({ id }) => manager.restart(id),
    'extensions.remove': async ({ id }) => {
      await manager.remove(id);
      return { removed: true };
    },
    'extensions.grant': ({ id, permission, unrequested }) => manager.grant(id, [permission], { unrequested: unrequested === true }),
    'extensions.revoke': ({ id, permission }) => manager.revoke(id, [permission]),
    'extensions.frontend': ({ id }) => ({ messages: manager.pipeline().frontendMessages(id) }),
    'extensions.sendFrontend': ({ id, payload }) => ({ delivered: manager.pipeline().sendFrontend(id, payload) }),
    'extensions.runCommand': ({ id, commandId, chatId }) => {
      manager.runCommand(id, commandId, chatId);
      return { ran: true as const };
    },
    'extensions.dialogAnswer': ({ dialogId, answer }) => ({ taken: manager.spindleHost.dialogs.answer(dialogId, answer) }),
    'extensions.dialogs': () => ({ dialogs: manager.spindleHost.dialogs.pending() }),
    'extensions.pageRequest': ({ id, ...request }) => manager.frames.pageRequest(id, request),
    'extensions.frontendCall': async ({ id, method, args }) => ({ value: (await manager.frames.frontendCall(id, method, args)) ?? null }),
    'extensions.image': ({ imageId }) => ({ dataUrl: manager.frames.shownImage(imageId) }),
    'extensions.log': async ({ id, afterSeq }) => {
      // From the start, earlier processes' lines too (the log on disk); after a seq, this process's new lines.
      const own = manager.getLog(id, afterSeq ?? 0);
      const entries = afterSeq ? own : [...(await manager.logFiles.others(id)), ...own].sort((a, b) => a.at - b.at).slice(-LOG_MAX_LINES);
      const lastSeq = manager.getLog(id).at(-1)?.seq ?? afterSeq ?? 0;
      return { lines: entries.map(formatLogEntry), lastSeq };
    },
  };
}
