// The spindle.* requests by which extensions serve each other and the Workbench, and take in files: Lumiverse's shared RPC pool
// (rpcPool) and its providers (Spindle 0.6.20: a provider registry, sidecar endpoints, embedding, TTS and
// speech-to-text drivers). Part of the one request table (requests.ts).
import { Type } from '@sinclair/typebox';
import { endpoint } from '../rpc/endpoint';
import { MAX_ENDPOINT_CHARS } from './rpc-pool-names';
import { Any, Dto, Id, named, Opt, Options, OrNull, Page, positional } from './request-schema';

/** Lumiverse's read policy: the gated permissions both owner and reader must hold (omitted: all the owner's). */
const Policy = Options({ requires: Opt(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64 })) });
const Endpoint = Id(MAX_ENDPOINT_CHARS);
/** Lumiverse's provider kinds; others are kept and listed, never used. */
export const PROVIDER_KINDS = ['embedding', 'tts', 'stt', 'sidecar'] as const;
const ImageOptions = Options({ limit: Opt(Type.Number()), offset: Opt(Type.Number()), specificity: Opt(Type.Union([Type.Literal('full'), Type.Literal('sm'), Type.Literal('lg')])), onlyOwned: Opt(Type.Boolean()), characterId: Opt(Type.String()), chatId: Opt(Type.String()) });
const Image = Dto({ id: Type.String(), url: Type.String(), mime_type: Type.String() });
const Kind = Type.String({ pattern: '^[a-z][a-z0-9_-]{0,31}$' });
const ProviderId = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$' });

export const PEER_REQUESTS = {
  'rpcPool.sync': endpoint({ ...named({ endpoint: Endpoint, value: Opt(Any), policy: Policy }), result: Type.Null(), errors: ['QUOTA_EXCEEDED', 'INPUT_TOO_LARGE'] }),
  'rpcPool.handle': endpoint({ ...named({ endpoint: Endpoint, policy: Policy }), result: Type.Null(), errors: ['QUOTA_EXCEEDED'] }),
  'rpcPool.unregister': endpoint({ ...named({ endpoint: Endpoint }), result: Type.Null() }),
  // The owner's handler runs in its worker: its failure, its time-out, or its worker gone.
  'rpcPool.read': endpoint({ ...named({ endpoint: Endpoint }), result: Any, errors: ['NOT_FOUND', 'PERMISSION_DENIED', 'TOOL_ERROR', 'TOOL_TIMEOUT', 'TOOL_UNAVAILABLE', 'RESULT_TOO_LARGE', 'INVALID_RESULT', 'CANCELLED', 'RATE_LIMITED'] }),
  // Registration is fire-and-forget, as in Lumiverse; `handled` says whether the worker holds a handler for it.
  'providers.register': endpoint({ ...named({ kind: Kind, id: ProviderId, description: Opt(Any), broker: Opt(Any), generation: Opt(Type.Number()), revision: Opt(Type.Number()) }), result: Type.Null(), errors: ['QUOTA_EXCEEDED', 'INPUT_TOO_LARGE'] }),
  'providers.unregister': endpoint({ ...named({ kind: Kind, id: ProviderId }), result: Type.Null() }),
  // Resumable uploads its frontend streamed in (the frames' /api/v1/spindle-uploads): the bytes as base64.
  'uploads.get': endpoint({ ...positional({ uploadId: Id(64) }), result: OrNull(Dto({ fileName: Type.String(), size: Type.Number() })) }),
  // Its bytes, a part from `offset` (the worker's spindle.uploads.get reads them all and hands a Uint8Array).
  'uploads.read': endpoint({ ...named({ uploadId: Id(64), offset: Type.Integer({ minimum: 0 }) }), result: Type.String({ description: 'base64' }), errors: ['NOT_FOUND'] }),
  'uploads.delete': endpoint({ ...positional({ uploadId: Id(64) }), result: Type.Boolean() }),
  // Images it keeps in its own data (permission images), in Lumiverse's ImageDTO shape; the bytes as base64.
  'images.list': endpoint({ ...positional({ options: ImageOptions }), result: Page(Image), permission: 'images' }),
  'images.get': endpoint({ ...positional({ imageId: Id(64), options: ImageOptions }), result: OrNull(Image), permission: 'images' }),
  'images.upload': endpoint({ ...named({ data: Type.String({ description: 'base64' }), filename: Opt(Type.String({ maxLength: 1024 })), mime_type: Opt(Type.String({ maxLength: 200 })), owner_character_id: Opt(Type.String({ maxLength: 256 })), owner_chat_id: Opt(Type.String({ maxLength: 256 })) }), result: Image, errors: ['INPUT_TOO_LARGE', 'QUOTA_EXCEEDED'], permission: 'images' }),
  'images.delete': endpoint({ ...positional({ imageId: Id(64) }), result: Type.Boolean(), permission: 'images' }),
  'images.deleteMany': endpoint({ ...positional({ imageIds: Type.Array(Id(64), { maxItems: 1000 }) }), result: Type.Number(), permission: 'images' }),
  'providers.handle': endpoint({ ...named({ kind: Kind, id: ProviderId, bound: Type.Boolean() }), result: Type.Null(), errors: ['QUOTA_EXCEEDED'] }),
} as const;
