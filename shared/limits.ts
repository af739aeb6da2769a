// Size limits shared by every door into the host.

/** Largest contract call input accepted, in bytes of JSON. */
export const MAX_INPUT_BYTES = 1024 * 1024;
