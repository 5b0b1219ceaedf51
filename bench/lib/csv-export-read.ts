/** What reading one CSV export gave: nothing of it is kept but counts. */
export interface ExportRead {
  firstByteMs: number;
  bytes: number;
  /** CRLF-ended lines, the header's included. */
  lines: number;
}

/**
 * POSTs a list request to an export route and reads the answer as a stream, counting bytes and
 * line ends (cells whose line breaks are escaped, as JSON and the users' fields are).
 */
export async function readCsvExport(
  url: string,
  token: string,
  body: unknown,
  started = performance.now(),
): Promise<ExportRead> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`${response.status} ${await response.text()}`);
  let firstByteMs = 0;
  let bytes = 0;
  let lines = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (firstByteMs === 0) firstByteMs = performance.now() - started;
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 0x0a) lines += 1;
  }
  return { firstByteMs, bytes, lines };
}
