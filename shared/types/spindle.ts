// DTOs named in the Spindle seed (000) and the seeds that extend it, with the seeds' field names.
import type { Static } from '@sinclair/typebox';
import type { SidecarConfigSchema } from '../contract/sidecar';

export type JsonSchema = Record<string, unknown>;

/** What an extension passes to spindle.registerTool (seed 000 plus the optional fields of seeds 001–003). */
export interface ToolRegistrationDTO {
  name: string;
  display_name: string;
  description: string;
  parameters: JsonSchema;
  council_eligible?: boolean;
  inline_available?: boolean;
  /** Absent means 'write', as the orchestrator treats unknown tools. */
  mode?: 'read' | 'write';
  requires_approval?: boolean;
  read_path_param?: string | string[];
  write_path_param?: string | string[];
  output_schema?: JsonSchema;
  cache?: { ttl_ms: number; max_entries: number };
  has_simulate?: boolean;
}

export interface LlmMessageDTO {
  role: 'system' | 'user' | 'assistant';
  content: string;
  name?: string;
}

export interface CouncilMemberContext {
  memberId: string;
  itemId: string;
  packId: string;
  packName: string;
  name: string;
  role: string;
  chance: number;
  avatarUrl: string | null;
  definition: string;
  personality: string;
  behavior: string;
  genderIdentity: 0 | 1 | 2 | 3;
}

/** What the worker's TOOL_INVOCATION handler receives. */
export interface ToolInvocationPayloadDTO {
  toolName: string;
  args: Record<string, unknown>;
  requestId: string;
  councilMember?: CouncilMemberContext;
  contextMessages?: LlmMessageDTO[];
}

/** The sidecar LLM's settings (shared/contract/sidecar.ts). */
export type SidecarConfig = Static<typeof SidecarConfigSchema>;

/** Every permission name Lumiverse knows (lumiverse-spindle-types permissions.ts); a manifest may ask for any. */
export const EXTENSION_PERMISSIONS = [
  'generation',
  'interceptor',
  'tools',
  'cors_proxy',
  'context_handler',
  'ephemeral_storage',
  'chat_mutation',
  'event_tracking',
  'ui_panels',
  'app_manipulation',
  'oauth',
  'characters',
  'chats',
  'presets',
  'world_books',
  'regex_scripts',
  'regex_scripts_unrestricted',
  'databanks',
  'memories',
  'media',
  'personas',
  'push_notification',
  'image_gen',
  'images',
  'generation_parameters',
  'macro_interceptor',
  'web_search',
  'unsafe_eval',
  'final_response',
  'providers.embedding.register',
  'providers.tts.register',
  'providers.stt.register',
  'providers.sidecar.register',
] as const;

export type ExtensionPermission = (typeof EXTENSION_PERMISSIONS)[number];

/**
 * Permissions whose features the Workbench has no equivalent for (OAuth, media, web search, providers…; ui_panels and
 * app_manipulation give frontends their float widgets, dock panels and app mounts, push_notification the system's
 * notifications): an extension may ask for them and install; they grant nothing here.
 */
export const PERMISSIONS_NOT_AVAILABLE_HERE: readonly ExtensionPermission[] = [
  'oauth',
  'media',
  'web_search',
  'unsafe_eval',
  'final_response',
  'providers.embedding.register',
  'providers.tts.register',
  'providers.stt.register',
  'providers.sidecar.register',
];

/**
 * Permissions whose namespaces exist here but hold nothing: databanks and tracked events answer empty (granting them
 * still gates the calls, as in Lumiverse).
 */
export const PERMISSIONS_ANSWERED_EMPTY: readonly ExtensionPermission[] = ['databanks', 'event_tracking'];

/** What an extension asks for that does nothing here: features the Workbench lacks, and data it does not have. */
export function inertPermissions(requested: readonly ExtensionPermission[]): { notAvailable: ExtensionPermission[]; answeredEmpty: ExtensionPermission[] } {
  return {
    notAvailable: requested.filter((p) => PERMISSIONS_NOT_AVAILABLE_HERE.includes(p)),
    answeredEmpty: requested.filter((p) => PERMISSIONS_ANSWERED_EMPTY.includes(p)),
  };
}

export interface ExtensionManifest {
  /** The extension id in qualified tool names: ours (`knowledge-base`) or Lumiverse's identifier (`lumia_tools`). */
  id: string;
  name: string;
  version: string;
  description: string;
  /** The backend entry, relative to the folder (`main`, or Lumiverse's `entry_backend`, default dist/backend.js); '' for a frontend-only extension. */
  main: string;
  /** Every permission it asks for that the Workbench knows (all of Lumiverse's). */
  permissions: ExtensionPermission[];
  /** Which spindle.json form it was written in. */
  format?: 'workbench' | 'lumiverse';
  author?: string;
  github?: string;
  homepage?: string;
  entryFrontend?: string;
  minimumLumiverseVersion?: string;
  requestedCapabilities?: string[];
  /** Files copied into the extension's storage at install (Lumiverse's storage_seed_files). */
  storageSeedFiles?: Array<{ from: string; to?: string; overwrite?: boolean; required?: boolean }>;
  /** How long its interceptors may take, ms (clamped to 1 000–300 000). */
  interceptorTimeoutMs?: number;
}

/** spindle.storage.stat's answer (the host keeps an extension's files; its worker asks). */
export interface StorageStat {
  exists: boolean;
  isFile: boolean;
  isDirectory: boolean;
  sizeBytes: number;
  modifiedAt: string;
}
