import ImageOutlinedIcon from '@mui/icons-material/ImageOutlined';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LogoChange } from '../api/save-project';
import { LOGO_TYPES, logoProblem, type LogoProblem } from '../api/upload-logo';

const problemKeys: Record<LogoProblem, string> = {
  type: 'logoWrongType',
  size: 'logoTooLarge',
};

/**
 * The chosen file as a data URL for the preview. Read through FileReader rather than an
 * object URL, which would need revoking at the right moment under StrictMode's double effects.
 */
function usePreviewUrl(file: File | undefined): string | undefined {
  const [read, setRead] = useState<{ file: File; url: string }>();
  useEffect(() => {
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => setRead({ file, url: String(reader.result) });
    reader.readAsDataURL(file);
    return () => {
      reader.onload = null;
      reader.abort();
    };
  }, [file]);
  return read && read.file === file ? read.url : undefined;
}

/**
 * The project's logo (spec §2 "workplace logo image upload"): a preview of the stored or the
 * chosen image, choose and remove. The file is only sent after the project is saved.
 */
export function LogoField(props: {
  currentUrl: string | null;
  value: LogoChange;
  onChange: (change: LogoChange) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation('projects');
  const input = useRef<HTMLInputElement>(null);
  const labelId = useId();
  const helpId = useId();
  const [problem, setProblem] = useState<LogoProblem>();
  const chosen = usePreviewUrl(props.value.kind === 'upload' ? props.value.file : undefined);
  const preview =
    props.value.kind === 'upload' ? chosen : props.value.kind === 'keep' ? props.currentUrl : null;

  const choose = (file: File | undefined) => {
    if (!file) return;
    const found = logoProblem(file);
    setProblem(found);
    if (!found) props.onChange({ kind: 'upload', file });
  };

  return (
    <Stack
      role="group"
      aria-labelledby={labelId}
      aria-describedby={helpId}
      direction="row"
      spacing={2}
      sx={{ alignItems: 'center', mt: 1, mb: 1 }}
    >
      <Avatar
        variant="rounded"
        src={preview ?? undefined}
        alt={preview ? t('logoPreview') : undefined}
        sx={{ width: 72, height: 72, bgcolor: 'action.hover', color: 'text.secondary' }}
      >
        <ImageOutlinedIcon />
      </Avatar>
      <Stack spacing={0.5}>
        <Typography id={labelId} variant="subtitle2">
          {t('logo')}
        </Typography>
        <Stack direction="row" spacing={1}>
          <Button
            variant="outlined"
            size="small"
            disabled={props.disabled}
            onClick={() => input.current?.click()}
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
        <FormHelperText id={helpId} error={problem !== undefined} sx={{ m: 0 }}>
          {problem ? t(problemKeys[problem]) : t('logoHint')}
        </FormHelperText>
      </Stack>
      <input
        ref={input}
        type="file"
        hidden
        accept={LOGO_TYPES.join(',')}
        aria-label={t('chooseLogo')}
        disabled={props.disabled}
        onChange={(event) => {
          choose(event.target.files?.[0]);
          // Choosing the same file again after a refusal must fire a change again.
          event.target.value = '';
        }}
      />
    </Stack>
  );
}
