// Local model methods: the library of GGUF models the built-in engine runs (list, add a file on disk, remove).
import { Type } from '@sinclair/typebox';
import { method } from './define';

export const LocalModelSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  /** Where the GGUF is: picked on disk, or in the data folder's models/ when downloaded. */
  file: Type.String(),
  sizeBytes: Type.Integer(),
  architecture: Type.String(),
  contextLength: Type.Union([Type.Integer(), Type.Null()]),
  source: Type.Union([
    Type.Object({ kind: Type.Literal('file') }),
    Type.Object({ kind: Type.Literal('download'), url: Type.String(), sha256: Type.Optional(Type.String()) }),
  ]),
  addedAt: Type.Number(),
  /** The file is no longer there (listed so its connections can say why they fail). */
  missing: Type.Optional(Type.Boolean()),
});

const Id = Type.String({ pattern: '^[a-z0-9-]{1,64}$' });

export const localModelMethods = {
  'models.list': method('The local models in the library.', Type.Object({}, { additionalProperties: false }), Type.Array(LocalModelSchema)),
  'models.add': method(
    'Adds a GGUF on disk to the library (used where it is).',
    Type.Object({ path: Type.String({ minLength: 1, maxLength: 4096 }) }, { additionalProperties: false }),
    LocalModelSchema,
  ),
  'models.remove': method(
    'Removes a model from the library; a file it downloaded is deleted, a file picked on disk is left.',
    Type.Object({ id: Id }, { additionalProperties: false }),
    Type.Object({ removed: LocalModelSchema, deletedFile: Type.Boolean() }),
  ),
};
