// The spindle.* requests for the files an extension takes in: what its frontend uploaded (resumable uploads through the
// frames' /api/v1/spindle-uploads) and the images it keeps (spindle.images), their bytes as base64. Part of the one
// request table (requests.ts).
import { Type } from '@sinclair/typebox';
import { endpoint } from '../rpc/endpoint';
import { LLM_ERROR_CODES } from '../errors';
import { Dto, Id, named, Opt, Options, OrNull, Page, positional } from './request-schema';

const ImageOptions = Options({ limit: Opt(Type.Number()), offset: Opt(Type.Number()), specificity: Opt(Type.Union([Type.Literal('full'), Type.Literal('sm'), Type.Literal('lg')])), onlyOwned: Opt(Type.Boolean()), characterId: Opt(Type.String()), chatId: Opt(Type.String()) });
const Image = Dto({ id: Type.String(), url: Type.String(), mime_type: Type.String() });

export const FILE_REQUESTS = {
  // Resumable uploads its frontend streamed in (the frames' /api/v1/spindle-uploads): the bytes as base64.
  'uploads.get': endpoint({ ...positional({ uploadId: Id(64) }), result: OrNull(Dto({ fileName: Type.String(), size: Type.Number() })) }),
  // Its bytes, a part from `offset` (the worker's spindle.uploads.get reads them all and hands a Uint8Array).
  'uploads.read': endpoint({ ...named({ uploadId: Id(64), offset: Type.Integer({ minimum: 0 }) }), result: Type.String({ description: 'base64' }), errors: ['NOT_FOUND'] }),
  'uploads.delete': endpoint({ ...positional({ uploadId: Id(64) }), result: Type.Boolean() }),
  // Images it keeps in its own data (permission images), in Lumiverse's ImageDTO shape; the bytes as base64.
  'images.list': endpoint({ ...positional({ options: ImageOptions }), result: Page(Image), permission: 'images' }),
  'images.get': endpoint({ ...positional({ imageId: Id(200), options: ImageOptions }), result: OrNull(Image), permission: 'images' }),
  'images.upload': endpoint({ ...named({ data: Type.String({ description: 'base64' }), filename: Opt(Type.String({ maxLength: 1024 })), mime_type: Opt(Type.String({ maxLength: 200 })), owner_character_id: Opt(Type.String({ maxLength: 256 })), owner_chat_id: Opt(Type.String({ maxLength: 256 })) }), result: Image, errors: ['INPUT_TOO_LARGE', 'QUOTA_EXCEEDED'], permission: 'images' }),
  'images.delete': endpoint({ ...positional({ imageId: Id(64) }), result: Type.Boolean(), permission: 'images' }),
  'images.deleteMany': endpoint({ ...positional({ imageIds: Type.Array(Id(64), { maxItems: 1000 }) }), result: Type.Number(), permission: 'images' }),
  // Images made through the person's connections that make them (spindle-host/image-gen.ts), kept with its images.
  'imageGen.generate': endpoint({
    ...positional({
      input: Type.Object({
        prompt: Type.String({ maxLength: 32_000 }),
        connection_id: Opt(Type.String({ maxLength: 128 })),
        negativePrompt: Opt(Type.String({ maxLength: 32_000 })),
        model: Opt(Type.String({ maxLength: 200 })),
        parameters: Opt(Type.Record(Type.String(), Type.Unknown())),
        owner_character_id: Opt(Type.String({ maxLength: 256 })),
        owner_chat_id: Opt(Type.String({ maxLength: 256 })),
        includeDataUrl: Opt(Type.Boolean()),
        userId: Opt(Type.String()),
      }),
    }),
    result: Dto({ imageDataUrl: Type.String(), model: Type.String(), provider: Type.String() }),
    errors: ['UNSUPPORTED_HERE', 'RATE_LIMITED', 'CANCELLED', 'INVALID_INPUT', 'NOT_FOUND', 'CONNECTION_HELD', ...LLM_ERROR_CODES],
    permission: 'image_gen',
  }),
  'imageGen.listConnections': endpoint({ ...positional({}), result: Type.Array(Dto({ id: Type.String(), name: Type.String(), provider: Type.String() })), permission: 'image_gen' }),
  'imageGen.getConnection': endpoint({ ...positional({ connectionId: Type.String({ maxLength: 128 }) }), result: OrNull(Dto({ id: Type.String(), name: Type.String() })), permission: 'image_gen' }),
  'imageGen.getModels': endpoint({ ...positional({ connectionId: Type.String({ maxLength: 128 }) }), result: Type.Array(Dto({ id: Type.String(), label: Type.String() })), permission: 'image_gen' }),
  'imageGen.getProviders': endpoint({ ...positional({}), result: Type.Array(Dto({ id: Type.String(), name: Type.String() })), permission: 'image_gen' }),
} as const;
