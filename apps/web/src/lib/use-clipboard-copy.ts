import { useState } from 'react';

/**
 * Copies a text to the clipboard and keeps how it went, for a live region beside the button
 * (`lists:copied` / `lists:copyFailed`): without a clipboard (an insecure page, a refusal) the
 * user is asked to copy by hand.
 */
export function useClipboardCopy(text: string) {
  const [outcome, setOutcome] = useState<'copied' | 'copyFailed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setOutcome('copied');
    } catch {
      setOutcome('copyFailed');
    }
  };
  return { outcome, copy };
}
