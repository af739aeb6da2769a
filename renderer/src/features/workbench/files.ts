// Getting text out of the window and into it: download as a file, copy to the clipboard, read a chosen file. No markup is built from the text.

/** Saves text as a file through a temporary blob link; false when the page cannot (no URL.createObjectURL). */
export function downloadText(fileName: string, text: string, type = 'application/json'): boolean {
  if (typeof URL.createObjectURL !== 'function') return false;
  const url = URL.createObjectURL(new Blob([text], { type }));
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

/** Copies text; false when the clipboard refuses (the desktop permission handler, or a page without focus). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Largest session file the import form reads (the host caps messages anyway). */
export const MAX_IMPORT_BYTES = 32 * 1024 * 1024;

export async function readFileText(file: File): Promise<string> {
  if (file.size > MAX_IMPORT_BYTES) throw new Error(`The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB.`);
  return file.text();
}
