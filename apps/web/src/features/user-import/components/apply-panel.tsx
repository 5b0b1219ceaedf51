import DownloadIcon from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserImportJob } from '@tc/contract/user-import';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { paths } from '../../../lib/paths';
import { describeFailure } from '../../../lib/problem-text';
import { applyImport, downloadResult, importKeys } from '../api/user-import-api';

/**
 * The totals of the check, then Apply (after a confirmation: it creates users and may send
 * mail), the live progress while the batches run, and the outcome with the result file. An
 * interrupted import shows Apply again, which continues it.
 */
export function ApplyPanel(props: { job: UserImportJob; onChangeColumns: () => void }) {
  const { t, i18n } = useTranslation(['userImport', 'problems']);
  const client = useQueryClient();
  const { job } = props;
  const [confirming, setConfirming] = useState(false);
  const apply = useMutation({
    mutationFn: () => applyImport(job.id),
    onSuccess: (done) => client.setQueryData(importKeys.job(job.id), done),
    onSettled: () => client.invalidateQueries({ queryKey: ['users', 'import', job.id] }),
  });
  const download = useMutation({
    mutationFn: () => downloadResult(job.id, i18n.resolvedLanguage),
  });
  const running = apply.isPending || job.state === 'applying';
  const percent = job.rowCount > 0 ? Math.round((job.progress.done / job.rowCount) * 100) : 0;

  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Chip color="success" label={t('totals.valid', { count: job.totals.valid })} />
        <Chip color="error" label={t('totals.withErrors', { count: job.totals.withErrors })} />
        <Chip label={t('totals.existing', { count: job.totals.existing })} />
      </Stack>
      {job.state === 'checked' && !apply.isPending ? (
        <Stack direction="row" spacing={2}>
          <Button variant="contained" onClick={() => setConfirming(true)}>
            {t('apply')}
          </Button>
          <Button onClick={props.onChangeColumns}>{t('changeColumns')}</Button>
        </Stack>
      ) : null}
      {running ? (
        <Box role="status" aria-live="polite">
          <LinearProgress
            variant="determinate"
            value={percent}
            aria-label={t('progressLabel')}
            aria-valuetext={t('progress', { done: job.progress.done, total: job.rowCount })}
          />
          <Typography variant="body2" sx={{ mt: 1 }}>
            {t('progress', { done: job.progress.done, total: job.rowCount })}
          </Typography>
          {job.state === 'applying' && !apply.isPending ? (
            <Button sx={{ mt: 1 }} variant="outlined" onClick={() => apply.mutate()}>
              {t('continue')}
            </Button>
          ) : null}
        </Box>
      ) : null}
      {apply.isError ? <Alert severity="error">{describeFailure(t, apply.error)}</Alert> : null}
      {job.state === 'done' ? (
        <Alert severity={job.progress.failed > 0 ? 'warning' : 'success'} role="status">
          {t('result', {
            created: job.progress.created,
            skipped: job.progress.skipped,
            failed: job.progress.failed,
          })}
        </Alert>
      ) : null}
      {job.state === 'done' ? (
        <Stack direction="row" spacing={2}>
          <Button
            variant="contained"
            startIcon={<DownloadIcon />}
            disabled={download.isPending}
            onClick={() => download.mutate()}
          >
            {t('downloadResult')}
          </Button>
          <Button component={RouterLink} to={paths.users}>
            {t('toUsers')}
          </Button>
        </Stack>
      ) : null}
      {download.isError ? (
        <Alert severity="error">{describeFailure(t, download.error)}</Alert>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title={t('confirmTitle')}
          confirmLabel={t('apply')}
          onConfirm={() => {
            apply.mutate();
            return Promise.resolve();
          }}
          onClose={() => setConfirming(false)}
        >
          {job.sendInvitations
            ? t('confirmWithMail', { count: job.totals.valid })
            : t('confirmText', { count: job.totals.valid })}
        </ConfirmDialog>
      ) : null}
    </Stack>
  );
}
