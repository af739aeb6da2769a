// Host-level methods: status and liveness.
import { Type } from '@sinclair/typebox';
import { endpoint } from '../rpc/endpoint';
import { NoticeSchema } from '../notices';

const Empty = Type.Object({}, { additionalProperties: false });
/** The longest text put on the clipboard at once (a note, a long reply): within a host call's 1 MB of input as JSON. */
export const MAX_CLIPBOARD_CHARS = 256 * 1024;

export const StatusSchema = Type.Object({
  dataDir: Type.String(),
  settingsVersion: Type.Integer(),
  mode: Type.Union([Type.Literal('desktop'), Type.Literal('browser'), Type.Literal('cli')]),
  counts: Type.Object({
    extensions: Type.Integer(),
    tools: Type.Integer(),
    members: Type.Integer(),
  }),
  notices: Type.Array(NoticeSchema),
  /** false: extensions and MCP servers were not started (a CLI command that only reads the data folder), so tools counts the built-in ones. */
  toolSourcesStarted: Type.Optional(Type.Boolean()),
});

export const hostMethods = {
  'host.status': endpoint({ description: 'Where the data lives, the settings version and what is loaded.', params: Empty, result: StatusSchema }),
  'host.ping': endpoint({ description: 'Liveness check; returns the host time.', params: Empty, result: Type.Object({ now: Type.Number() }) }),
  'app.visibility': endpoint({
    description: 'A window says whether the person can see it, when that changes and every 30 s while it does (extensions ask whether the person is away).',
    params: Type.Object({ windowId: Type.String({ minLength: 1, maxLength: 64 }), visible: Type.Boolean() }, { additionalProperties: false }),
    result: Type.Object({}),
  }),
  'app.clipboard.write': endpoint({
    description: "Puts text on the system clipboard (the desktop app's, which the window's own page may not write); written false: this host has none, and the window writes its own.",
    params: Type.Object({ text: Type.String({ maxLength: MAX_CLIPBOARD_CHARS }) }, { additionalProperties: false }),
    result: Type.Object({ written: Type.Boolean() }),
  }),
  'notices.dismiss': endpoint({ description: 'Dismiss one notice by id.', params: Type.Object({ id: Type.String({ maxLength: 200 }) }, { additionalProperties: false }), result: Type.Object({ dismissed: Type.Boolean() }) }),
};
