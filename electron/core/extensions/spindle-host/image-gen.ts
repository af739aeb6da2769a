// spindle.imageGen (permission `image_gen`): images made through the person's connections that make them (an OpenAI
// or OpenAI-compatible connection given an image model), in Lumiverse's shapes. Each image is kept in the extension's
// own images, so its imageUrl shows in the chat (and, with `images`, in its frames); the key never leaves the host.
// Without such a connection it fails in Lumiverse's own words.
import { RecentWindow, UnderWay } from '../per-extension-limits';
import type { GeneratedImage, ImageRequest } from '../../connections/image-generation';
import type { ExtensionImages } from './extension-images';
import { imageMime } from './extension-images';
import { fail, type HandlersOf } from './handlers';
import { HostFailure } from '../../../../shared/errors';

/** A connection that makes images, as extensions may see it (never a key). */
export interface ImageConnection {
  id: string;
  name: string;
  provider: string;
  baseUrl: string;
  imageModel: string;
  hasKey: boolean;
}

export interface ImageConnections {
  /** In the person's order: the first is the default. */
  list(): ImageConnection[];
  generate(connectionId: string, request: ImageRequest, signal: AbortSignal): Promise<GeneratedImage>;
}

/** Generated images kept for an extension that may not delete them (no `images`): the newest, the older ones go. */
export const MAX_GENERATED_KEPT = 500;

/** Images one extension may be waiting for at once; more are refused (RATE_LIMITED), never queued on the person's bill. */
export const MAX_IMAGES_AT_ONCE = 2;
/**
 * Images one extension may ask for in a minute: an extension that makes one per message it hears, and hears its own
 * edit, would otherwise make them without end on the person's bill (Lumiverse sets no cap; a person clicks fewer).
 */
export const MAX_IMAGES_A_MINUTE = 10;

/** Lumiverse's provider id for the OpenAI Images API, with the parameters it takes (a subset of its schema). */
const OPENAI_PROVIDER = {
  id: 'openai',
  name: 'OpenAI',
  capabilities: {
    parameters: {
      size: { type: 'select', default: 'auto', description: 'Output image dimensions (model-dependent)', options: ['auto', '1024x1024', '1536x1024', '1024x1536', '1792x1024', '1024x1792', '512x512', '256x256'].map((id) => ({ id, label: id === 'auto' ? 'Auto' : id })) },
      quality: { type: 'select', default: 'auto', description: 'Image quality', options: ['auto', 'low', 'medium', 'high', 'standard', 'hd'].map((id) => ({ id, label: id })) },
      style: { type: 'select', default: 'vivid', description: 'Rendering style (DALL-E 3 only)', options: ['vivid', 'natural'].map((id) => ({ id, label: id })) },
      background: { type: 'select', default: 'auto', description: 'Background transparency (GPT image models only)', options: ['auto', 'opaque', 'transparent'].map((id) => ({ id, label: id })), group: 'advanced' },
      outputFormat: { type: 'select', default: 'png', description: 'Returned image format (GPT image models only)', options: ['png', 'jpeg', 'webp'].map((id) => ({ id, label: id })), group: 'advanced' },
      moderation: { type: 'select', default: 'low', description: 'Content moderation strictness (GPT image models only)', options: ['low', 'auto'].map((id) => ({ id, label: id })), group: 'advanced' },
    },
    apiKeyRequired: true,
    modelListStyle: 'static',
    staticModels: [] as Array<{ id: string; label: string }>,
    defaultUrl: 'https://api.openai.com/v1',
  },
};

function connectionDto(c: ImageConnection, first: boolean) {
  return {
    id: c.id,
    name: c.name,
    provider: 'openai',
    api_url: c.baseUrl,
    model: c.imageModel,
    is_default: first,
    has_api_key: c.hasKey,
    default_parameters: {},
    metadata: { workbench_provider: c.provider },
    created_at: 0,
    updated_at: 0,
  };
}

export function imageGenHandlers(source: () => ImageConnections | null, images: ExtensionImages, now: () => number): HandlersOf<'imageGen'> {
  const all = () => source()?.list() ?? [];
  const find = (id: string) => all().find((c) => c.id === id) ?? null;
  const waiting = new UnderWay(MAX_IMAGES_AT_ONCE);
  const recent = new RecentWindow(MAX_IMAGES_A_MINUTE, 60_000, now);
  return {
    'imageGen.listConnections': () => all().map((c, i) => connectionDto(c, i === 0)),
    'imageGen.getConnection': ({ connectionId }) => {
      const found = find(connectionId);
      return found ? connectionDto(found, all()[0]?.id === found.id) : null;
    },
    // Its one image model (the connection names it); none for a connection that makes no images.
    'imageGen.getModels': ({ connectionId }) => {
      const found = find(connectionId);
      return found ? [{ id: found.imageModel, label: found.imageModel }] : [];
    },
    'imageGen.getProviders': () => [OPENAI_PROVIDER],
    'imageGen.generate': async ({ input }, caller, call) => {
      const connections = source();
      // Lumiverse's words when there is nothing to make it with (an extension may show them, or match on them).
      const connection = input.connection_id
        ? (connections?.list().find((c) => c.id === input.connection_id) ?? fail('UNSUPPORTED_HERE', 'Image gen connection not found', '/input/connection_id'))
        : (connections?.list()[0] ?? fail('UNSUPPORTED_HERE', 'No default image gen connection configured'));
      if (!waiting.begin(caller.extensionId)) fail('RATE_LIMITED', `At most ${MAX_IMAGES_AT_ONCE} images at a time; this one was not asked for.`);
      if (!recent.take(caller.extensionId)) {
        waiting.end(caller.extensionId);
        fail('RATE_LIMITED', `At most ${MAX_IMAGES_A_MINUTE} images a minute; this one was not asked for.`);
      }
      let made: GeneratedImage;
      try {
        made = await connections!.generate(connection.id, { prompt: input.prompt, ...(input.model ? { model: input.model } : {}), ...(input.parameters ? { parameters: input.parameters } : {}) }, call.signal);
      } finally {
        waiting.end(caller.extensionId);
      }
      const mime = imageMime(made.bytes) ?? fail('LLM_BAD_RESPONSE', `The server at ${connection.baseUrl} answered with something that is not a PNG, JPEG, GIF or WebP image.`);
      // Kept as Lumiverse keeps it, tagged with its owners: the chat shows it where a reply names its url, and the
      // extension reads it back with images. Past its quota it is handed over only.
      let kept: { id: string; url: string } | null = null;
      try {
        kept = images.add(caller.extensionId, made.bytes, {
          filename: `generated.${mime.split('/')[1]}`,
          owners: { character: input.owner_character_id, chat: input.owner_chat_id },
          generated: true,
          // Without `images` it cannot delete them: its newest MAX_GENERATED_KEPT only.
          ...(caller.allowed('images') ? {} : { keepGenerated: MAX_GENERATED_KEPT }),
        });
      } catch (err) {
        if (!(err instanceof HostFailure)) throw err;
      }
      return {
        imageDataUrl: input.includeDataUrl === false && kept ? '' : `data:${mime};base64,${made.bytes.toString('base64')}`,
        model: made.model,
        provider: 'openai',
        ...(kept ? { imageId: kept.id, imageUrl: kept.url } : {}),
      };
    },
  };
}
