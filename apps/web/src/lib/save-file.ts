/**
 * Saves a blob as a file: a blob URL clicked through a temporary `<a download>`. Without
 * anything else, so the sign-in pages' small script can use it as the console does.
 */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    link.style.display = 'none';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the blob to the browser's download; a tick later it may go.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}

/** Recovery codes as a text file, one a line, named so the user finds it again. */
export const saveRecoveryCodes = (codes: readonly string[], fileName: string) =>
  saveFile(new Blob([`${codes.join('\n')}\n`], { type: 'text/plain' }), fileName);
