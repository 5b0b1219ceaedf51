import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useForm,
  type DefaultValues,
  type FieldPath,
  type FieldValues,
  type Resolver,
  type UseFormReturn,
} from 'react-hook-form';
import type * as z4 from 'zod/v4/core';
import { placeFieldProblems } from '../../lib/problem-text';
import { contractResolver } from '../../lib/form-resolver';
import { notify } from '../notifications';

export type DialogMode = 'add' | 'edit' | 'view' | 'delete';

const TITLE_KEYS = { add: 'addTitle', edit: 'editTitle', view: 'viewTitle', delete: 'deleteTitle' };
const CONFIRM_KEYS = { add: 'save', edit: 'saveChanges', view: 'save', delete: 'deleteConfirm' };

/**
 * The modal title and confirm label for a mode, from the entity's namespace (keys
 * addTitle, editTitle, viewTitle, deleteTitle; save, saveChanges, deleteConfirm).
 */
export function dialogLabels(t: (key: string) => string, mode: DialogMode) {
  return { title: t(TITLE_KEYS[mode]), confirmLabel: t(CONFIRM_KEYS[mode]) };
}

export interface CrudDialogProps<Input extends FieldValues, Output> {
  mode: DialogMode;
  onClose: () => void;
  /** The modal title for this mode. */
  title: string;
  /** The confirm button label for this mode (hidden in view mode). */
  confirmLabel: string;
  /** 400, or 800 for the users' two-column form. */
  width: number;
  /** The contract's schema of the payload: the form validates with it before sending. */
  schema: z4.$ZodType<Output, FieldValues>;
  defaultValues: DefaultValues<Input>;
  /** Sends the validated payload (or, in delete mode, nothing) to the server. */
  onConfirm: (values: Output) => Promise<unknown>;
  successMessage: string;
  /** Delete mode: the question asked instead of the form. */
  deleteQuestion?: ReactNode;
  /** The entity's fields; `disabled` is true in view mode. */
  children?: (form: UseFormReturn<Input, unknown, Output>, disabled: boolean) => ReactNode;
  /**
   * Called with the fields that got a message (the contract's before sending, the server's
   * after), so a form in steps can show the step holding them.
   */
  onFieldErrors?: (fields: string[]) => void;
  /** Replaces the confirm button (a form in steps: Next, Back, Save); Cancel stays. */
  actions?: (form: UseFormReturn<Input, unknown, Output>, busy: boolean) => ReactNode;
}

/**
 * The one add / edit / view / delete dialog of the list screens. A failure keeps
 * the dialog open with what was typed: a problem naming a field lands on that field, any
 * other is shown above the form: an administrator must know a save failed. Success closes it with a short confirmation.
 */
export function CrudDialog<Input extends FieldValues, Output>(
  props: CrudDialogProps<Input, Output>,
) {
  const { t } = useTranslation('lists');
  const titleId = useId();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Input, unknown, Output>({
    // Add and edit validate with different contract schemas over one form shape; the form's
    // input type is the entity's (its defaultValues), the schema decides what is sent.
    resolver: contractResolver(props.schema as never) as unknown as Resolver<
      Input,
      unknown,
      Output
    >,
    defaultValues: props.defaultValues,
  });
  const [busy, setBusy] = useState(false);
  const viewing = props.mode === 'view';
  const deleting = props.mode === 'delete';

  const showFailure = (error: unknown) => {
    // A delete has no fields to correct: its problem is shown above the form.
    const fieldNames = new Set(deleting ? [] : Object.keys(form.getValues()));
    const { placed, failure } = placeFieldProblems(t, error, fieldNames, (field, message) =>
      form.setError(field as FieldPath<Input>, { type: 'server', message }),
    );
    if (placed.length > 0) props.onFieldErrors?.(placed);
    setFailure(failure);
  };

  const confirm = async (values: Output) => {
    setFailure(null);
    setBusy(true);
    try {
      await props.onConfirm(values);
      notify(props.successMessage);
      props.onClose();
    } catch (error) {
      showFailure(error);
    } finally {
      setBusy(false);
    }
  };

  const submit = deleting
    ? (event: React.FormEvent) => {
        event.preventDefault();
        void confirm(undefined as Output);
      }
    : form.handleSubmit(confirm, (errors) => props.onFieldErrors?.(Object.keys(errors)));

  return (
    <Dialog
      open
      onClose={busy ? undefined : props.onClose}
      aria-labelledby={titleId}
      fullWidth
      sx={{ '& .MuiDialog-paper': { maxWidth: props.width } }}
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{props.title}</DialogTitle>
        <DialogContent>
          {failure ? (
            <Alert severity="error" sx={{ mb: 2 }}>
              {failure}
            </Alert>
          ) : null}
          {deleting ? (
            <DialogContentText>{props.deleteQuestion}</DialogContentText>
          ) : (
            props.children?.(form, viewing || busy)
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={props.onClose} disabled={busy}>
            {t('cancel')}
          </Button>
          {viewing ? null : props.actions ? (
            props.actions(form, busy)
          ) : (
            <Button
              type="submit"
              variant="contained"
              color={deleting ? 'error' : 'primary'}
              disabled={busy}
            >
              {props.confirmLabel}
            </Button>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
