import TextField from '@mui/material/TextField';
import { useController, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { translateFieldMessage } from '../../../lib/problem-text';
import { listProblems, type ClientForm, type UriField } from '../form-state';

/**
 * A list of addresses as text, one a line (a list is often pasted whole). A problem with one
 * address, the form's own or the server's, names its line.
 */
export function UriListField(props: {
  control: Control<ClientForm, unknown, unknown>;
  name: UriField;
  label: string;
  hint: string;
  placeholder: string;
  disabled: boolean;
}) {
  const { t } = useTranslation('clients');
  const { field, fieldState } = useController({ control: props.control, name: props.name });
  const problems = listProblems(fieldState.error, field.value).map(({ message, line }) => {
    const problem = translateFieldMessage(t, message);
    return line === undefined ? problem : t('lineProblem', { line, problem });
  });
  return (
    <TextField
      {...field}
      label={props.label}
      multiline
      minRows={2}
      placeholder={props.placeholder}
      disabled={props.disabled}
      error={problems.length > 0}
      helperText={
        problems.length > 0
          ? problems.map((problem, index) => (
              <span key={index} style={{ display: 'block' }}>
                {problem}
              </span>
            ))
          : props.hint
      }
      fullWidth
      margin="dense"
      slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'none' } }}
    />
  );
}
