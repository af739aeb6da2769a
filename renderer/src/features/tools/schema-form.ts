// The schema form's logic in one import, split by job: schema-nodes (schema → form description), schema-drafts
// (drafts made and edited), schema-args (drafts → arguments, the raw-JSON view). Pure: no React, no DOM.
export * from './schema-nodes';
export * from './schema-drafts';
export * from './schema-args';
