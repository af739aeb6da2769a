// What extensions' frontend frames reach of the host: the files and images their origin serves, and the answers to
// their requests to Lumiverse's own `/api/v1/…` (page-api.ts), each within that extension's grants; and the images
// their messages show by those addresses.
import fs from 'node:fs';
import { CHARACTER_IMAGE_ID } from '../../../shared/spindle/lumiverse-ids';
import { HostFailure } from '../../../shared/errors';
import { spindleRequest } from '../../../shared/spindle/requests';
import { frameLabel } from '../../../shared/frames/frame-origin';
import type { ExtensionPermission } from '../../../shared/types/spindle';
import type { Clock } from '../ports';
import { showsFrontend, type Entry } from './extension-entry';
import { MAX_FRONTEND_CALLS_IN_FLIGHT, type FrontendCall } from '../../../shared/frames/host-state';
import { UnderWay } from './per-extension-limits';
import { PageRequests, type PageRequest, type PageResponse } from './page-api';
import type { SpindleHost } from './spindle-host/spindle-host';
import { fail } from './spindle-host/handlers';

export class ExtensionFrames {
  private readonly pages: PageRequests;
  private readonly calls = new UnderWay(MAX_FRONTEND_CALLS_IN_FLIGHT);

  constructor(
    private readonly entries: ReadonlyMap<string, Entry>,
    private readonly spindle: SpindleHost,
    private readonly clock: Clock,
  ) {
    this.pages = new PageRequests(() => clock.now());
  }

  /** The folder whose files the frame origin `label` serves: an enabled extension with a frontend. */
  frontendFolder(label: string): string | null {
    return this.framed(label)?.folder ?? null;
  }

  /**
   * A character's picture (its image_id, `avatar-<session>`) for the extension of frame origin `label`, with what reading
   * the character needs (characters); null otherwise.
   */
  avatarFile(label: string, imageId: string): string | null {
    return this.avatarOf(this.framed(label), imageId);
  }

  /** The picture file of the character `imageId` names, when `entry` may read characters. */
  private avatarOf(entry: Entry | null, imageId: string): string | null {
    return entry?.granted.has('characters') ? this.pictureFile(imageId) : null;
  }

  /** The picture file of the character `imageId` names (`avatar-<session>`), whoever asks; null when it has none. */
  private pictureFile(imageId: string): string | null {
    const session = CHARACTER_IMAGE_ID.exec(imageId)?.[1];
    return session ? (this.spindle.chats()?.avatarFile(session) ?? null) : null;
  }

  /** The folder of the images the extension of frame origin `label` keeps (spindle.images), served there. */
  imagesFolder(label: string): string | null {
    const entry = this.framed(label);
    return entry?.granted.has('images') ? this.spindle.images.folder(entry.id) : null;
  }

  /** A request its frontend made to Lumiverse's `/api/v1/…`, answered within its permissions. */
  pageRequest(id: string, request: PageRequest): Promise<PageResponse> {
    const { entry, spindle } = this.asFrontend(id);
    return this.pages.answer(request, {
      extensionId: id,
      spindle,
      uploads: this.spindle.uploads,
      image: (imageId) => (entry.granted.has('images') ? this.spindle.images.read(id, imageId) : null),
      avatar: (imageId) => pngOf(this.avatarOf(entry, imageId)),
      // What it made through the person's image connection, while it may make them.
      generatedImage: (imageId) => (entry.granted.has('image_gen') || entry.granted.has('images') ? this.spindle.images.read(id, imageId, { generated: true }) : null),
      activeChatId: () => this.spindle.activeChatId(),
      activePresetId: () => this.spindle.activePresetId(),
      settings: {
        list: () => this.spindle.pageSettings.list(id),
        get: (key) => this.spindle.pageSettings.get(id, key),
        put: (values) => this.spindle.pageSettings.put(id, values),
        delete: (key) => this.spindle.pageSettings.delete(id, key),
      },
      branch: async (chatId, messageId, name) => {
        if (!entry.granted.has('chat_mutation')) throw new HostFailure({ code: 'PERMISSION_DENIED', message: 'chat_mutation — branching a chat needs the chat_mutation permission.', path: '/chatId' });
        const chats = this.spindle.chats() ?? fail('UNSUPPORTED_HERE', 'No chats are open yet.');
        const branched = await chats.branch(chatId, messageId);
        if (name) chats.updateChat(branched, { name });
        return branched;
      },
      now: () => this.clock.now(),
    });
  }

  /**
   * One of Lumiverse's frontend v2 members (host-state.ts): a spindle method its backend could call, with the same
   * permissions and refusals, or its own settings.
   */
  async frontendCall(id: string, method: FrontendCall, args: unknown[]): Promise<unknown> {
    const { spindle } = this.asFrontend(id);
    if (!this.calls.begin(id)) throw new HostFailure({ code: 'RATE_LIMITED', message: `At most ${MAX_FRONTEND_CALLS_IN_FLIGHT} calls of an extension's frontends at a time.` });
    try {
      if (method === 'frontendSettings.read') return this.spindle.frontendSettings.read(id);
      if (method === 'frontendSettings.write') return await this.spindle.frontendSettings.write(id, args[0], args[1]);
      if (method === 'route.openChat') return this.spindle.openChat(id, typeof args[0] === 'string' ? args[0] : fail('INVALID_INPUT', 'A chat id is a string.', '/args/0'));
      const answered = await spindle(method, args);
      if (!answered.ok) throw new HostFailure(answered.error);
      return answered.value;
    } finally {
      this.calls.end(id);
    }
  }

  /** A running extension with a frontend, and a spindle call as it (its permissions; a refusal listed on its card, as its backend's). */
  private asFrontend(id: string) {
    const entry = this.entries.get(id);
    if (!entry || !showsFrontend(entry)) throw new HostFailure({ code: 'NOT_FOUND', message: `No running extension "${id}" with a frontend.`, path: '/id' });
    const origin = { extensionId: id, allowed: (permission: ExtensionPermission) => entry.granted.has(permission), denyPermission: () => undefined };
    const call = { signal: new AbortController().signal, emit: () => undefined };
    // A method of positional arguments takes them as a worker sends them; one of named params (generate.raw), the first.
    const params = (method: string, args: unknown[]) => (spindleRequest(method)?.positional ? { args } : (args[0] ?? {}));
    return { entry, spindle: (method: string, args: unknown[]) => this.spindle.answer(origin, method, params(method, args), call) };
  }

  /**
   * An image a message shows by Lumiverse's address for it (`/api/v1/images/<imageId>`), as a data URL: one an extension
   * granted images keeps, or a character's picture; null when none has it. The app shows it: it is the person's own.
   */
  shownImage(imageId: string): string | null {
    const dataUrl = (image: { mime: string; bytes: Buffer } | null) => (image ? `data:${image.mime};base64,${image.bytes.toString('base64')}` : null);
    if (CHARACTER_IMAGE_ID.test(imageId)) return dataUrl(pngOf(this.pictureFile(imageId)));
    for (const entry of this.entries.values()) {
      // Its images, with `images`; what it made through the person's image connection, whatever it holds now.
      const image = this.spindle.images.read(entry.id, imageId, entry.granted.has('images') ? {} : { generated: true });
      if (image) return dataUrl(image);
    }
    return null;
  }

  /** The enabled extension with a frontend whose frame origin is `label`. */
  private framed(label: string): Entry | null {
    // Two extensions named alike (folders put in place by hand) get no frames at all: neither may have the other's.
    const named = [...this.entries.values()].filter((e) => frameLabel(e.id) === label);
    const entry = named.length === 1 ? named[0]! : null;
    return entry?.enabled && entry.loaded?.frontend ? entry : null;
  }
}

/** A character's picture file as an image's bytes and type (sessions keep PNGs); null when there is none. */
const pngOf = (file: string | null) => (file && fs.existsSync(file) ? { mime: 'image/png', bytes: fs.readFileSync(file) } : null);
