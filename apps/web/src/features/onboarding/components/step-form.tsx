import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  useForm,
  type DefaultValues,
  type FieldPath,
  type FieldValues,
  type Resolver,
  type UseFormReturn,
} from 'react-hook-form';
import type * as z4 from 'zod/v4/core';
import { placeFieldProblems } from '../../../lib/problem-text';
import { contractResolver } from '../../../lib/form-resolver';

export const STEP_COUNT = 3;
const stepLabels = ['steps.role', 'steps.permission', 'steps.user'] as const;

/** "Step n/3", the wizard's progress and the step's heading. */
export function StepHeader(props: { step: 1 | 2 | 3; title: string; id: string }) {
  const { t } = useTranslation('onboarding');
  return (
    <>
      <Stepper
        activeStep={props.step - 1}
        alternativeLabel
        sx={{ mb: 4 }}
        component="ol"
        aria-label={t('progress')}
      >
        {stepLabels.map((label) => (
          <Step key={label} component="li">
            <StepLabel>{t(label)}</StepLabel>
          </Step>
        ))}
      </Stepper>
      <Typography variant="overline" component="p" color="text.secondary">
        {t('stepOf', { step: props.step, total: STEP_COUNT })}
      </Typography>
      <Typography id={props.id} component="h1" variant="h4" sx={{ mb: 3 }}>
        {props.title}
      </Typography>
    </>
  );
}

export interface StepFormProps<Input extends FieldValues, Output> {
  step: 1 | 2 | 3;
  title: string;
  /** The contract's schema of what the step sends (create role, permission or user). */
  schema: z4.$ZodType<Output, FieldValues>;
  defaultValues: DefaultValues<Input>;
  /** Where "Go back" leads: the page before this one. */
  back: string;
  /** Creates or updates the step's row and records the progress; throws on failure. */
  onSave: (values: Output, changed: boolean) => Promise<void>;
  children: (form: UseFormReturn<Input, unknown, Output>, disabled: boolean) => ReactNode;
}

/**
 * A step of the wizard: its fields, "Go back" and "Save and Continue". A failure keeps what
 * was typed; a problem naming a field lands on it, any other above the form, so nothing typed is lost.
 */
export function StepForm<Input extends FieldValues, Output>(props: StepFormProps<Input, Output>) {
  const { t } = useTranslation(['onboarding', 'lists']);
  const navigate = useNavigate();
  const titleId = useId();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useForm<Input, unknown, Output>({
    resolver: contractResolver(props.schema as never) as unknown as Resolver<
      Input,
      unknown,
      Output
    >,
    defaultValues: props.defaultValues,
  });

  const showFailure = (error: unknown) => {
    const fieldNames = new Set(Object.keys(form.getValues()));
    const { failure } = placeFieldProblems(t, error, fieldNames, (field, message) =>
      form.setError(field as FieldPath<Input>, { type: 'server', message }),
    );
    setFailure(failure);
  };

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    setBusy(true);
    try {
      await props.onSave(values, form.formState.isDirty);
    } catch (error) {
      showFailure(error);
    } finally {
      setBusy(false);
    }
  });

  return (
    <Box component="form" onSubmit={submit} noValidate aria-labelledby={titleId}>
      <StepHeader step={props.step} title={props.title} id={titleId} />
      {failure ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {failure}
        </Alert>
      ) : null}
      {props.children(form, busy)}
      <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, mt: 4 }}>
        <Button
          variant="outlined"
          disabled={busy}
          onClick={() => void navigate(props.back, { state: { fromWizard: true } })}
        >
          {t('goBack')}
        </Button>
        <Button type="submit" variant="contained" disabled={busy}>
          {busy ? t('saving') : t('saveAndContinue')}
        </Button>
      </Box>
    </Box>
  );
}
