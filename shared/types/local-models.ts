// A local model in the Workbench's library (electron/core/local-model/model-library.ts), as every side sees it.
import type { Static } from '@sinclair/typebox';
import type { CatalogEntrySchema, LocalModelSchema, ModelDownloadSchema, ProbeCardSchema } from '../contract/local-models';

export type LocalModelInfo = Static<typeof LocalModelSchema>;
export type ModelDownload = Static<typeof ModelDownloadSchema>;
export type ProbeCard = Static<typeof ProbeCardSchema>;
export type CatalogEntry = Static<typeof CatalogEntrySchema>;

/** The base URL of every local-model connection: the model is named by its library id, not found at an address. */
export const LOCAL_MODELS_URL = 'local:models';
