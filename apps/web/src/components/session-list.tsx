import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { Session } from '@tc/contract/security';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useDateTime } from '../lib/use-date-time';

/** "Chrome 131 on Linux", or whichever half the user agent told. */
export function describeDevice(t: TFunction, session: Pick<Session, 'browser' | 'os'>): string {
  const { browser, os } = session;
  if (browser && os) return t('sessions:device', { browser, os });
  return browser ?? os ?? t('sessions:unknownDevice');
}

export interface SessionListProps {
  sessions: readonly Session[];
  /** Names the table for screen readers. */
  label: string;
  /** Ends one session; not offered on the current one (that is what Log out does). */
  onSignOut?: (session: Session) => void;
  /** The session being signed out: its button waits. */
  pendingId?: string | null;
}

/**
 * Open sessions: browser and system, the application, the address, when it signed in and was
 * last active, the current one marked "This device". Shared by the account page (the user's
 * own) and the Users screen (an administrator's view of someone's); texts in `sessions`.
 */
export function SessionList({ sessions, label, onSignOut, pendingId }: SessionListProps) {
  const { t } = useTranslation('sessions');
  const dateTime = useDateTime();
  if (sessions.length === 0) {
    return <Typography color="text.secondary">{t('none')}</Typography>;
  }
  return (
    // Focusable, so a keyboard can scroll the table sideways on a narrow screen.
    <TableContainer role="region" aria-label={label} tabIndex={0}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            <TableCell>{t('browserColumn')}</TableCell>
            <TableCell>{t('application')}</TableCell>
            <TableCell>{t('ipAddress')}</TableCell>
            <TableCell>{t('signedIn')}</TableCell>
            <TableCell>{t('lastActive')}</TableCell>
            {onSignOut ? <TableCell align="right">{t('actions')}</TableCell> : null}
          </TableRow>
        </TableHead>
        <TableBody>
          {sessions.map((session) => {
            const device = describeDevice(t, session);
            return (
              <TableRow key={session.id} data-current={session.current || undefined}>
                <TableCell>
                  {device}
                  {session.current ? (
                    <Chip
                      size="small"
                      color="primary"
                      variant="outlined"
                      label={t('thisDevice')}
                      sx={{ ml: 1 }}
                    />
                  ) : null}
                </TableCell>
                <TableCell>{session.clientName ?? session.clientId}</TableCell>
                <TableCell>{session.ipAddress ?? t('unknown')}</TableCell>
                <TableCell>{dateTime(session.createdAt)}</TableCell>
                <TableCell>{dateTime(session.lastActiveAt)}</TableCell>
                {onSignOut ? (
                  <TableCell align="right">
                    {session.current ? null : (
                      <Button
                        size="small"
                        color="error"
                        // Begins with the visible words (WCAG 2.5.3), then says which session.
                        aria-label={t('signOutNamed', {
                          device,
                          ip: session.ipAddress ?? t('unknown'),
                        })}
                        disabled={pendingId === session.id}
                        onClick={() => onSignOut(session)}
                        sx={{ whiteSpace: 'nowrap' }}
                      >
                        {t('signOut')}
                      </Button>
                    )}
                  </TableCell>
                ) : null}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
