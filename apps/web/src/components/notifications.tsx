import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { useSyncExternalStore } from 'react';

interface Notice {
  id: number;
  message: string;
  severity: 'success' | 'error' | 'info';
}

let current: Notice | null = null;
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

/** A short confirmation after a save or delete, raised at the call site, which knows what succeeded. */
export function notify(message: string, severity: Notice['severity'] = 'success') {
  current = { id: nextId++, message, severity };
  emit();
}

function dismiss() {
  current = null;
  emit();
}

/** The one place notices appear; mounted once by the layout. */
export function Notifications() {
  const notice = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
  );
  return (
    <Snackbar
      key={notice?.id}
      open={notice !== null}
      autoHideDuration={4000}
      onClose={(_event, reason) => reason !== 'clickaway' && dismiss()}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      {notice ? (
        <Alert severity={notice.severity} variant="filled" onClose={dismiss} role="status">
          {notice.message}
        </Alert>
      ) : undefined}
    </Snackbar>
  );
}
