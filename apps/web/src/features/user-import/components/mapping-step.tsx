import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import {
  USER_IMPORT_FIELDS,
  USER_IMPORT_REQUIRED_FIELDS,
  type UserImportField,
  type UserImportJob,
  type UserImportMapping,
} from '@tc/contract/user-import';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeFailure } from '../../../lib/problem-text';
import { saveMapping } from '../api/user-import-api';

const NONE = 'none';
const isRequired = (field: UserImportField) =>
  (USER_IMPORT_REQUIRED_FIELDS as readonly string[]).includes(field);

/**
 * The second step: which column gives each field (suggested from the header's names), and
 * whether the new users get an invitation mail. Saving checks every row: the preview follows.
 */
export function MappingStep(props: {
  job: UserImportJob;
  onChecked: (job: UserImportJob) => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation(['userImport', 'problems']);
  const { job } = props;
  const [mapping, setMapping] = useState<UserImportMapping>(job.mapping ?? job.suggestedMapping);
  const [sendInvitations, setSendInvitations] = useState(job.sendInvitations);
  const check = useMutation({
    mutationFn: () => saveMapping(job.id, { mapping, sendInvitations }),
    onSuccess: props.onChecked,
  });
  const missing = USER_IMPORT_FIELDS.filter(
    (field) => isRequired(field) && mapping[field] === null,
  );

  return (
    <Stack
      component="form"
      spacing={2}
      onSubmit={(event) => {
        event.preventDefault();
        check.mutate();
      }}
    >
      <Typography>{t('mappingIntro', { count: job.rowCount })}</Typography>
      <Grid container spacing={2}>
        {USER_IMPORT_FIELDS.map((field) => (
          <Grid key={field} size={{ xs: 12, sm: 6, md: 4 }}>
            <TextField
              select
              fullWidth
              required={isRequired(field)}
              label={t(`field.${field}`)}
              value={mapping[field] === null ? NONE : String(mapping[field])}
              onChange={(event) =>
                setMapping((current) => ({
                  ...current,
                  [field]: event.target.value === NONE ? null : Number(event.target.value),
                }))
              }
            >
              <MenuItem value={NONE}>
                {isRequired(field) ? t('chooseColumn') : t('notInFile')}
              </MenuItem>
              {job.columns.map((column, index) => (
                <MenuItem key={index} value={String(index)}>
                  {column || t('columnNumber', { number: index + 1 })}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
        ))}
      </Grid>
      <FormControlLabel
        control={
          <Checkbox
            checked={sendInvitations}
            onChange={(event) => setSendInvitations(event.target.checked)}
          />
        }
        label={t('sendInvitations')}
      />
      {check.isError ? <Alert severity="error">{describeFailure(t, check.error)}</Alert> : null}
      <Stack direction="row" spacing={2}>
        <Button type="submit" variant="contained" disabled={check.isPending || missing.length > 0}>
          {check.isPending ? t('checking') : t('checkRows')}
        </Button>
        {props.onCancel ? (
          <Button onClick={props.onCancel} disabled={check.isPending}>
            {t('cancel')}
          </Button>
        ) : null}
      </Stack>
    </Stack>
  );
}
