import { useEffect, useRef, type RefObject } from 'react';

/**
 * Keeps what was typed into a server-rendered field before the script took it over: on mount,
 * a field whose value in the page differs from the state's is adopted as it is in the page.
 */
export function useTypedValue(
  value: string,
  setValue: (value: string) => void,
): RefObject<HTMLInputElement | null> {
  const field = useRef<HTMLInputElement>(null);
  const first = useRef({ value, setValue });
  useEffect(() => {
    const typed = field.current?.value;
    if (typed !== undefined && typed !== first.current.value) first.current.setValue(typed);
  }, []);
  return field;
}

/** The same for a checkbox ticked before the script ran. */
export function useTypedChecked(
  checked: boolean,
  setChecked: (checked: boolean) => void,
): RefObject<HTMLInputElement | null> {
  const field = useRef<HTMLInputElement>(null);
  const first = useRef({ checked, setChecked });
  useEffect(() => {
    const ticked = field.current?.checked;
    if (ticked !== undefined && ticked !== first.current.checked) first.current.setChecked(ticked);
  }, []);
  return field;
}
