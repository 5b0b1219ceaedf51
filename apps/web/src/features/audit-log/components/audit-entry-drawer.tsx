import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { AuditEntry } from '@tc/contract/audit';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDateTime } from '../../../lib/use-date-time';
import { changeDiff, type FieldChange } from '../lib/change-diff';
import { useAuditLabels } from './use-audit-labels';

const valueCell = { fontFamily: 'monospace', wordBreak: 'break-word', verticalAlign: 'top' };

/** A table of fields: field and the sides the entry has. */
function FieldTable({
  rows,
  columns,
  caption,
}: {
  rows: FieldChange[];
  columns: Array<{ side: 'before' | 'after'; label: string }>;
  caption: string;
}) {
  const { t } = useTranslation('auditLog');
  return (
    <Table size="small" aria-label={caption}>
      <TableHead>
        <TableRow>
          <TableCell component="th" scope="col">
            {t('field')}
          </TableCell>
          {columns.map(({ side, label }) => (
            <TableCell key={side} component="th" scope="col">
              {label}
            </TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.field}>
            <TableCell component="th" scope="row" sx={{ verticalAlign: 'top' }}>
              {row.field}
            </TableCell>
            {columns.map(({ side }) => (
              <TableCell key={side} sx={valueCell}>
                {row[side] ?? (
                  <Typography variant="body2" color="text.secondary">
                    {t('absent')}
                  </Typography>
                )}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/**
 * What the entry changed: for an update the changed fields with before and after, and the
 * unchanged ones folded away; a created entity shows its values after, a deleted one before.
 */
function ChangeTables({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation('auditLog');
  const [showUnchanged, setShowUnchanged] = useState(false);
  const unchangedId = useId();
  const diff = changeDiff(entry.before, entry.after);
  if (diff.sides === 'none') {
    return <Typography color="text.secondary">{t('noValues')}</Typography>;
  }
  const sides = diff.sides === 'both' ? (['before', 'after'] as const) : [diff.sides];
  const columns = sides.map((side) => ({ side, label: t(side) }));
  const title = diff.sides === 'both' ? t('changedFields') : t(`${diff.sides}Values`);
  return (
    <Stack spacing={1}>
      <Typography component="h3" variant="subtitle1">
        {title}
      </Typography>
      {diff.changed.length > 0 ? (
        <FieldTable rows={diff.changed} columns={columns} caption={title} />
      ) : (
        <Typography color="text.secondary">{t('nothingChanged')}</Typography>
      )}
      {diff.unchanged.length > 0 ? (
        <>
          <Box>
            <Button
              size="small"
              aria-expanded={showUnchanged}
              aria-controls={unchangedId}
              onClick={() => setShowUnchanged((shown) => !shown)}
            >
              {t(showUnchanged ? 'hideUnchanged' : 'showUnchanged', {
                count: diff.unchanged.length,
              })}
            </Button>
          </Box>
          <Collapse in={showUnchanged} id={unchangedId} unmountOnExit>
            <FieldTable
              rows={diff.unchanged}
              columns={[{ side: 'after', label: t('value') }]}
              caption={t('unchangedFields')}
            />
          </Collapse>
        </>
      ) : null}
    </Stack>
  );
}

/**
 * One entry in a side panel: who did what to which entity when, and what it changed. A modal
 * drawer: the focus moves into it, stays there, Escape or the close button ends it, and the
 * focus goes back to the row it was opened from.
 */
export function AuditEntryDrawer({
  entry,
  onClose,
}: {
  entry: AuditEntry | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('auditLog');
  const dateTime = useDateTime();
  const labels = useAuditLabels();
  const titleId = useId();
  return (
    <Drawer
      anchor="right"
      open={entry !== null}
      onClose={onClose}
      slotProps={{
        paper: {
          role: 'dialog',
          'aria-modal': true,
          'aria-labelledby': titleId,
          sx: { width: { xs: '100%', sm: 560 }, p: 3 },
        },
      }}
    >
      {entry ? (
        <Stack spacing={2}>
          <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
            <Typography id={titleId} component="h2" variant="h6">
              {t('entryTitle')}
            </Typography>
            <IconButton aria-label={t('close')} onClick={onClose}>
              <CloseIcon />
            </IconButton>
          </Stack>
          <Box
            component="dl"
            sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: 1, m: 0 }}
          >
            {(
              [
                ['time', dateTime(entry.createdAt)],
                ['actor', labels.actor(entry)],
                ['entity', labels.entity(entry.entity)],
                ['action', labels.action(entry.action)],
                ['entityId', entry.entityId],
              ] as const
            ).map(([key, value]) => (
              <Box key={key} sx={{ display: 'contents' }}>
                <Typography component="dt" color="text.secondary">
                  {t(key)}
                </Typography>
                <Typography component="dd" sx={{ m: 0, wordBreak: 'break-word' }}>
                  {value}
                </Typography>
              </Box>
            ))}
          </Box>
          <ChangeTables entry={entry} />
        </Stack>
      ) : null}
    </Drawer>
  );
}
