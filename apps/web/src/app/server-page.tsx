import { useEffect } from 'react';

/** The address the console's document was loaded at. */
const loadedAt = window.location.href;

/**
 * A page the server renders (the sign-in pages): the console loads it instead of showing it.
 * Where the console itself was served at that address (a server without those pages, such as
 * the development server), it stays put rather than loading the same address for ever.
 */
export function ServerPage({ to }: { to?: string }) {
  useEffect(() => {
    const address = new URL(to ?? window.location.href, window.location.href).href;
    if (address !== loadedAt) window.location.replace(address);
  }, [to]);
  return null;
}
