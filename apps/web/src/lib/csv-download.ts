import { API_BASE_PATH } from '@tc/contract/route';
import { apiStream } from './api-client';
import { saveFile } from './save-file';

/** The file name a Content-Disposition header gives (RFC 6266), the UTF-8 form first. */
export function dispositionFileName(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // A malformed escape: fall back to the plain name.
    }
  }
  const plain = /filename="([^"]*)"/i.exec(header) ?? /filename=([^;]+)/i.exec(header);
  return plain?.[1]?.trim() || undefined;
}

/**
 * POSTs `body` to an export route (`path` under the API's base, e.g. `/users/export`) with the
 * console's client (bearer token, one refresh on 401, problem details as ApiError) and saves the
 * answer as a file (headers in `language`, and separated as that language's spreadsheet expects:
 * `;` in de, fr and it), named by the server or else `fileName`. The file is saved as the server
 * wrote it, never parsed here.
 */
export async function downloadCsv(
  path: string,
  body: unknown,
  fileName: string,
  language?: string,
): Promise<void> {
  const response = await apiStream(`${API_BASE_PATH}${path}`, {
    method: 'POST',
    body,
    // The column headers and the separator of the console's language, not the browser's.
    headers: { Accept: 'text/csv', ...(language && { 'Accept-Language': language }) },
  });
  await saveAnswerAsFile(response, fileName);
}

/**
 * Saves an answer's body as a file: a blob URL clicked through a temporary `<a download>`,
 * named by the server (Content-Disposition) when it names it, else `fallbackName`.
 */
export async function saveAnswerAsFile(response: Response, fallbackName: string): Promise<void> {
  const blob = await response.blob();
  const name = dispositionFileName(response.headers.get('Content-Disposition')) ?? fallbackName;
  saveFile(blob, name);
}
