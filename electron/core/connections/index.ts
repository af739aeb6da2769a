// Public surface of the connections domain: profiles, keys, redaction, model lists, local-server detection.
export { ConnectionService, MemoryProfileRepository, MAX_PROFILES, withProfile, withoutProfile, type ConnectionServiceOptions, type ProfileRepository, type SaveProfileResult } from './connection-service';
export { detectLocalServers, DEFAULT_LOCAL_PORTS, type DetectOptions } from './detect';
export { listModels, testConnection, parseModelList, type ModelListDeps } from './models';
export { Redactor, createRedactingLogger, REDACTED, MIN_SECRET_LENGTH } from './redact';
export {
  FileSecretStore,
  MemorySecretStore,
  SECRETS_FILE_NAME,
  checkKey,
  keyHint,
  profileView,
  resolveApiKey,
  type Env,
  type FileSecretStoreOptions,
  type SecretStore,
  type SecretStoreDescription,
} from './secret-store';
export { checkBaseUrl, checkKeyRef, isLoopbackUrl, profileWarnings, validateProfile, ENV_KEY_NAME_PATTERN } from './validate-profile';
