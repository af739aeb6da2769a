// What each extension permission lets an extension do, and what each worker status means, in plain language. Plain data.
import type { ExtensionInfo } from '../../../../shared/contract/events';
import { EXTENSION_PERMISSIONS } from '../../../../shared/types/spindle';

export type Permission = ExtensionInfo['requested'][number];
export type ExtensionStatus = ExtensionInfo['status'];

export const PERMISSIONS: readonly Permission[] = EXTENSION_PERMISSIONS;

const NOT_HERE = 'asks for something the Workbench does not have; granting it does nothing here';

export const PERMISSION_INFO: Record<Permission, { label: string; explanation: string }> = {
  tools: { label: 'Tools', explanation: 'may register tools that council members and the chat can call' },
  generation: { label: 'Generation', explanation: 'may run its own LLM generations through your connections (uses your API credits) and see your connection names' },
  interceptor: { label: 'Interceptor', explanation: 'may rewrite the messages sent to the model before each reply' },
  cors_proxy: { label: 'Network through the host', explanation: 'may fetch web addresses (http and https) through the host' },
  context_handler: { label: 'Context handler', explanation: 'may change the chat context before each reply' },
  ephemeral_storage: { label: 'Temporary files', explanation: 'may keep expiring files (up to 50 MB)' },
  chat_mutation: { label: 'Chat changes', explanation: 'may read and change the messages of a chat' },
  event_tracking: { label: 'Event tracking', explanation: 'may record its own analytics events' },
  ui_panels: { label: 'UI panels', explanation: 'may put floating widgets and docked panels of its own over the Workbench' },
  app_manipulation: { label: 'App manipulation', explanation: 'may mount a full panel of its own, in the extensions panel or as a view over the whole app (its own frame, with the app’s Close; it never reaches the app’s own page)' },
  oauth: { label: 'OAuth', explanation: NOT_HERE },
  characters: { label: 'Characters', explanation: 'may read and change your characters, make new ones and delete them (a character is a session here: deleting one deletes its chat)' },
  chats: { label: 'Chats', explanation: 'may read your chats' },
  presets: { label: 'Presets', explanation: 'may read, create and change your presets and their prompt blocks (the chosen one builds the chat’s prompt)' },
  world_books: { label: 'World books', explanation: 'may read the chat’s world info' },
  regex_scripts: { label: 'Regex scripts', explanation: 'may read your regex scripts and add its own, which change what the model is sent, the replies saved and what the chat shows' },
  regex_scripts_unrestricted: { label: 'All regex scripts', explanation: 'may change or delete regex scripts other extensions wrote' },
  databanks: { label: 'Databanks', explanation: 'may read databanks (the Workbench has none)' },
  memories: { label: 'Memories', explanation: 'may read your chats’ memory (recalled messages, and the people and places it keeps) and add to it' },
  media: { label: 'Media', explanation: NOT_HERE },
  personas: { label: 'Personas', explanation: 'may read the chat’s persona' },
  push_notification: { label: 'Push notifications', explanation: NOT_HERE },
  image_gen: { label: 'Image generation', explanation: 'may make images through your connections that have an image model (uses your API credits)' },
  images: { label: 'Images', explanation: 'may keep images in its own storage and show them in its frames' },
  generation_parameters: { label: 'Generation parameters', explanation: 'may change sampling parameters through its interceptor' },
  macro_interceptor: { label: 'Macro interceptor', explanation: 'may rewrite prompt templates before macros are resolved' },
  web_search: { label: 'Web search', explanation: NOT_HERE },
  unsafe_eval: { label: 'Unsafe eval', explanation: NOT_HERE },
  final_response: { label: 'Final response', explanation: NOT_HERE },
  'providers.embedding.register': { label: 'Embedding provider', explanation: NOT_HERE },
  'providers.tts.register': { label: 'Text-to-speech provider', explanation: NOT_HERE },
  'providers.stt.register': { label: 'Speech-to-text provider', explanation: NOT_HERE },
  'providers.sidecar.register': { label: 'Sidecar provider', explanation: NOT_HERE },
};

export function permissionInfo(permission: string): { label: string; explanation: string } {
  return Object.prototype.hasOwnProperty.call(PERMISSION_INFO, permission)
    ? PERMISSION_INFO[permission as Permission]
    : { label: permission, explanation: 'a permission this version of the workbench does not know' };
}

export const STATUS_INFO: Record<ExtensionStatus, { label: string; tone: 'ok' | 'warn' | 'danger' | 'neutral'; help: string }> = {
  running: { label: 'Running', tone: 'ok', help: 'Its worker process is up and its tools are available.' },
  starting: { label: 'Starting', tone: 'warn', help: 'Its worker process is starting.' },
  stopped: { label: 'Stopped', tone: 'neutral', help: 'Enabled, but its worker is not running. Restart starts it.' },
  crashed: { label: 'Crashed', tone: 'danger', help: 'Its worker exited unexpectedly; the host restarts it after a short wait.' },
  failed: { label: 'Failed', tone: 'danger', help: 'It crashed repeatedly or could not start, so the host stopped trying. Restart to try again.' },
  disabled: { label: 'Disabled', tone: 'neutral', help: 'Turned off: no worker runs and its tools are not registered.' },
};

export function statusInfo(status: string) {
  return Object.prototype.hasOwnProperty.call(STATUS_INFO, status)
    ? STATUS_INFO[status as ExtensionStatus]
    : { label: status, tone: 'neutral' as const, help: '' };
}
