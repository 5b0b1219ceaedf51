import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { UserImportJob } from '@tc/contract/user-import';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { describeFailure } from '../../../lib/problem-text';
import { fetchJob, importKeys } from '../api/user-import-api';
import { ApplyPanel } from './apply-panel';
import { ImportRowsTable } from './import-rows-table';
import { MappingStep } from './mapping-step';
import { UploadStep } from './upload-step';

const JOB_PARAM = 'job';
const STEPS = ['stepFile', 'stepColumns', 'stepPreview', 'stepResult'] as const;

function stepOf(job: UserImportJob | undefined, editing: boolean): number {
  if (!job) return 0;
  if (job.state === 'uploaded' || editing) return 1;
  if (job.state === 'checked') return 2;
  return 3;
}

/**
 * Importing users from a CSV file, as a wizard: the file, its columns, the preview of every
 * row's problems, then apply with live progress and the result file. The import's id is kept
 * in the address, so a reload (or a second tab) comes back to the same step.
 */
export default function UserImportPage() {
  const { t } = useTranslation(['userImport', 'problems']);
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const jobId = params.get(JOB_PARAM);
  const [editing, setEditing] = useState(false);
  const job = useQuery({
    queryKey: importKeys.job(jobId ?? ''),
    queryFn: ({ signal }) => fetchJob(jobId!, signal),
    enabled: jobId !== null,
  });

  const show = (next: UserImportJob) => {
    client.setQueryData(importKeys.job(next.id), next);
    setEditing(false);
    setParams({ [JOB_PARAM]: next.id });
  };
  const startOver = () => {
    setEditing(false);
    setParams({});
  };
  const current = jobId ? job.data : undefined;

  return (
    <Stack spacing={3}>
      <Typography variant="h1">{t('title')}</Typography>
      <Stepper activeStep={stepOf(current, editing)} alternativeLabel>
        {STEPS.map((step) => (
          <Step key={step}>
            <StepLabel>{t(step)}</StepLabel>
          </Step>
        ))}
      </Stepper>
      <Paper sx={{ p: 3 }}>
        {!jobId ? (
          <UploadStep onUploaded={show} />
        ) : job.isPending ? (
          <CircularProgress aria-label={t('loading')} />
        ) : job.isError ? (
          <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
            <Alert severity="error">{describeFailure(t, job.error)}</Alert>
            <Button onClick={startOver}>{t('startOver')}</Button>
          </Stack>
        ) : current && (current.state === 'uploaded' || editing) ? (
          <MappingStep
            job={current}
            onChecked={show}
            onCancel={current.state === 'checked' ? () => setEditing(false) : startOver}
          />
        ) : current ? (
          <Stack spacing={3}>
            <ApplyPanel job={current} onChangeColumns={() => setEditing(true)} />
            <ImportRowsTable jobId={current.id} applied={current.state !== 'checked'} />
            {current.state === 'done' ? (
              <Button onClick={startOver} sx={{ alignSelf: 'flex-start' }}>
                {t('importAnother')}
              </Button>
            ) : null}
          </Stack>
        ) : null}
      </Paper>
    </Stack>
  );
}
