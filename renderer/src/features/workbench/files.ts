// Getting files out of the window and into it: download text or bytes, copy to the clipboard, read a chosen file (as text or base64). No markup is built from the text.

/** Saves text as a file through a temporary blob link; false when the page cannot (no URL.createObjectURL). */
export function downloadText(fileName: string, text: string, type = 'application/json'): boolean {
  return downloadBlob(fileName, new Blob([text], { type }));
}

function downloadBlob(fileName: string, blob: Blob): boolean {
  if (typeof URL.createObjectURL !== 'function') return false;
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    link.rel = 'noopener';
    link.style.display = 'none';
    document.body.appendChild(link);
    link.click();
    link.remove();
    return true;
  } finally {
    // Give the download a moment to start before the URL goes away.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

/** Largest session file the import form reads (the host caps messages anyway). */
export const MAX_IMPORT_BYTES = 32 * 1024 * 1024;

export async function readFileText(file: File): Promise<string> {
  if (file.size > MAX_IMPORT_BYTES) throw new Error(`The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB.`);
  return file.text();
}

/** Largest card, chat or lorebook file sent to the host (the host's own cap: see CARD_LIMITS). */
export const MAX_CARD_FILE_BYTES = 20 * 1024 * 1024;

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  // In slices: String.fromCharCode takes its bytes as arguments, and a call has an argument limit.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** A chosen or dropped file as base64, for the host's import calls. */
export async function readFileBase64(file: File): Promise<string> {
  if (file.size > MAX_CARD_FILE_BYTES) throw new Error(`${file.name} is ${(file.size / 1024 / 1024).toFixed(1)} MB; files up to ${MAX_CARD_FILE_BYTES / 1024 / 1024} MB are imported.`);
  return bytesToBase64(new Uint8Array(await file.arrayBuffer()));
}

/** Saves base64 content (a PNG card) as a file. */
export function downloadBase64(fileName: string, base64: string, type: string): boolean {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return downloadBlob(fileName, new Blob([bytes], { type }));
}
