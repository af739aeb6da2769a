// The formats a session can be written as. Apart from the contract's schemas (shared/contract/chat.ts) so the CLI
// can list them without loading the schema library at its start.
export const SESSION_EXPORT_FORMATS = ['workbench', 'card-v2', 'card-v3', 'card-v2-png', 'card-v3-png', 'st-chat', 'st-lorebook'] as const;

export type SessionExportFormat = (typeof SESSION_EXPORT_FORMATS)[number];
