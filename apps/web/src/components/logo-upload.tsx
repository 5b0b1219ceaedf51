import ImageOutlinedIcon from '@mui/icons-material/ImageOutlined';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  LOGO_MAX_BYTES,
  LOGO_TYPES,
  logoProblem,
  type LogoChange,
  type LogoProblem,
} from '../lib/logo-upload';

export interface LogoUploadProps {
  /** The stored logo's address, if the entity has one. */
  currentUrl: string | null;
  /** The change chosen so far; an upload carries the chosen file. */
  value: LogoChange;
  onChange: (change: LogoChange) => void;
  disabled?: boolean;
  /** A problem to show under the control, e.g. the server refused the upload. */
  error?: string;
  /** The control's caption; "Logo" when not given. */
  label?: string;
  /** The preview image's alternative text; "Logo preview" when not given. */
  previewAlt?: string;
  /** MIME types to accept; the server's when not given. */
  accept?: readonly string[];
  /** The largest file to accept, in bytes; the server's limit when not given. */
  maxBytes?: number;
}

const problemKeys: Record<LogoProblem, string> = { type: 'logoWrongType', size: 'logoTooLarge' };
const typeNames: Record<string, string> = {
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/webp': 'WebP',
  'image/gif': 'GIF',
};

/** The texts' values: "PNG, JPEG, WebP or GIF" and the limit in MB, as the accepted set is. */
function limits(t: TFunction, language: string, accept: readonly string[], maxBytes: number) {
  const names = accept.map((type) => typeNames[type] ?? type.replace(/^.*\//, '').toUpperCase());
  const last = names.pop() ?? '';
  const types = names.length ? `${names.join(', ')} ${t('lists:or')} ${last}` : last;
  const size = new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(
    maxBytes / (1024 * 1024),
  );
  return { types, size };
}

/**
 * The chosen file's preview as an object URL, made when the file is chosen (not in an effect,
 * so StrictMode's double effects make none twice) and released when another replaces it or
 * the control goes away.
 */
function usePreview() {
  const [shown, setShown] = useState<{ file: File; url: string }>();
  useEffect(
    () => () => {
      if (shown) URL.revokeObjectURL(shown.url);
    },
    [shown],
  );
  const show = (file: File) => setShown({ file, url: URL.createObjectURL(file) });
  const urlOf = (file: File) => (shown?.file === file ? shown.url : undefined);
  return { show, urlOf };
}

/**
 * An entity's logo (a project's workplace logo, a tenant's logo shown as its avatar): a preview of the stored or the chosen image, choose and remove. Only what the server
 * stores is accepted; anything else is refused here, before it is sent. The file itself is sent
 * by the caller once the entity is saved (lib/logo-upload.ts saveLogo).
 */
export function LogoUpload(props: LogoUploadProps) {
  const { t, i18n } = useTranslation('lists');
  const { value, accept = LOGO_TYPES, maxBytes = LOGO_MAX_BYTES } = props;
  const input = useRef<HTMLInputElement>(null);
  const labelId = useId();
  const helperId = useId();
  const [problem, setProblem] = useState<LogoProblem>();
  const { show, urlOf } = usePreview();
  const texts = limits(t, i18n.resolvedLanguage ?? 'en', accept, maxBytes);
  const preview =
    value.kind === 'upload'
      ? urlOf(value.file)
      : value.kind === 'keep'
        ? (props.currentUrl ?? undefined)
        : undefined;
  const error = problem ? t(problemKeys[problem], texts) : props.error;

  const choose = (file: File | undefined) => {
    if (!file) return;
    const found = logoProblem(file, accept, maxBytes);
    setProblem(found);
    if (found) return;
    show(file);
    props.onChange({ kind: 'upload', file });
  };

  return (
    <Stack
      role="group"
      aria-labelledby={labelId}
      direction="row"
      spacing={2}
      sx={{ alignItems: 'center', mt: 1, mb: 1 }}
    >
      <Avatar
        variant="rounded"
        src={preview}
        alt={preview ? (props.previewAlt ?? t('logoPreview')) : undefined}
        sx={{ width: 64, height: 64, bgcolor: 'action.hover', color: 'text.secondary' }}
      >
        <ImageOutlinedIcon aria-hidden />
      </Avatar>
      <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
        <Typography id={labelId} variant="subtitle2" component="span">
          {props.label ?? t('logo')}
        </Typography>
        <Stack direction="row" spacing={1}>
          <Button
            variant="outlined"
            size="small"
            disabled={props.disabled}
            onClick={() => input.current?.click()}
            aria-describedby={helperId}
          >
            {t('chooseLogo')}
          </Button>
          {preview ? (
            <Button
              size="small"
              color="error"
              disabled={props.disabled}
              onClick={() => {
                setProblem(undefined);
                props.onChange(props.currentUrl ? { kind: 'remove' } : { kind: 'keep' });
              }}
            >
              {t('removeLogo')}
            </Button>
          ) : null}
        </Stack>
        <FormHelperText id={helperId} error={error !== undefined} sx={{ m: 0 }}>
          {error ?? t('logoHint', texts)}
        </FormHelperText>
      </Stack>
      <input
        ref={input}
        type="file"
        hidden
        accept={accept.join(',')}
        aria-label={t('chooseLogo')}
        disabled={props.disabled}
        onChange={(event) => {
          choose(event.target.files?.[0]);
          // Choosing the same file again after a refusal or a removal must fire a change again.
          event.target.value = '';
        }}
      />
    </Stack>
  );
}
