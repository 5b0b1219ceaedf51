import ImageOutlinedIcon from '@mui/icons-material/ImageOutlined';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { translateProblem } from '../../../lib/translate-problem';
import type { LogoChange } from '../api/save-tenant';
import { LOGO_TYPES, logoProblem } from '../api/upload-logo';

export interface LogoPickerProps {
  /** The stored logo's address, if the tenant has one. */
  current: string | null;
  change: LogoChange;
  onChange: (change: LogoChange) => void;
  /** A problem to show under the picker (e.g. the server refused the upload). */
  error?: string;
  disabled?: boolean;
}

/**
 * The chosen file's preview address; the previous one is released when another is chosen,
 * and the last when the dialog closes.
 */
function usePreview(change: LogoChange, current: string | null) {
  const [objectUrl, setObjectUrl] = useState<string>();
  useEffect(
    () => () => {
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    },
    [objectUrl],
  );
  const show = (file: File) => setObjectUrl(URL.createObjectURL(file));
  const preview =
    change.kind === 'new'
      ? objectUrl
      : change.kind === 'remove'
        ? undefined
        : (current ?? undefined);
  return { preview, show };
}

/**
 * The tenant's logo with a preview (spec §3: the logo shown as avatar). Only what the server
 * stores is accepted (PNG, JPEG, WebP, GIF up to 2 MB); anything else is refused here, with
 * the server's own message, before it is sent.
 */
export function LogoPicker(props: LogoPickerProps) {
  const { t } = useTranslation(['tenants', 'validation']);
  const input = useRef<HTMLInputElement>(null);
  const helperId = useId();
  const [refused, setRefused] = useState<string>();
  const { preview, show } = usePreview(props.change, props.current);
  const error = refused ?? props.error;

  const choose = (file: File | undefined) => {
    if (!file) return;
    const problem = logoProblem(file);
    setRefused(problem ? translateProblem(t, problem) : undefined);
    if (problem) return;
    show(file);
    props.onChange({ kind: 'new', file });
  };

  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mt: 1, mb: 1 }}>
      <Avatar
        src={preview}
        alt={preview ? t('logoPreview') : undefined}
        variant="rounded"
        sx={{ width: 64, height: 64, bgcolor: 'action.hover', color: 'text.secondary' }}
      >
        <ImageOutlinedIcon aria-hidden />
      </Avatar>
      <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
        <Typography variant="body2" component="span">
          {t('logo')}
        </Typography>
        <Stack direction="row" spacing={1}>
          <Button
            size="small"
            variant="outlined"
            disabled={props.disabled}
            onClick={() => input.current?.click()}
            aria-describedby={helperId}
          >
            {t(preview ? 'changeLogo' : 'chooseLogo')}
          </Button>
          {preview ? (
            <Button
              size="small"
              color="error"
              disabled={props.disabled}
              onClick={() => {
                setRefused(undefined);
                props.onChange(props.current ? { kind: 'remove' } : { kind: 'keep' });
              }}
            >
              {t('removeLogo')}
            </Button>
          ) : null}
        </Stack>
        <FormHelperText id={helperId} error={error !== undefined} sx={{ m: 0 }}>
          {error ?? t('logoHint')}
        </FormHelperText>
      </Stack>
      <input
        ref={input}
        type="file"
        accept={LOGO_TYPES.join(',')}
        hidden
        aria-label={t('logo')}
        onChange={(event) => {
          choose(event.target.files?.[0]);
          // Choosing the same file again after removing it must fire a change.
          event.target.value = '';
        }}
      />
    </Stack>
  );
}
