import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { TotpSetup } from '@tc/contract/security';
import { QRCodeSVG } from 'qrcode.react';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CodeField, typedCode } from './code-field';
import { stepFailureText } from './step-failure';

/** The key in groups of four, as authenticator apps show it, easier to type without a slip. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/**
 * The enrolment the tenant requires, right after the password: the authenticator app's QR code
 * (and its key as text, for an app on the same device), then the app's first code. The answer
 * holds the recovery codes, which the next step shows once.
 */
export default function EnrolStep(props: {
  start: () => Promise<TotpSetup>;
  confirm: (code: string) => Promise<void>;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  // One secret per visit of the step: a query, so a re-render does not start another.
  const [visit] = useState(() => Math.random());
  const setup = useQuery({
    queryKey: ['sign-in-enrolment', visit],
    queryFn: props.start,
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  const [code, setCode] = useState('');
  const [missing, setMissing] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const confirm = useMutation({
    mutationFn: props.confirm,
    onError: () => {
      setCode('');
      field.current?.focus();
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const value = typedCode(code);
    setMissing(value === '');
    if (value !== '') confirm.mutate(value);
  };

  const back = (
    <Button onClick={props.onBack} fullWidth sx={{ mt: 1 }}>
      {t('signInSteps.back')}
    </Button>
  );
  if (setup.isPending) {
    return <LinearProgress aria-label={t('signInSteps.enrol.loading')} />;
  }
  if (setup.isError) {
    return (
      <>
        <Alert severity="error" role="alert">
          {stepFailureText(t, setup.error, 'enrol')}
        </Alert>
        {back}
      </>
    );
  }
  return (
    <>
      <Typography sx={{ mb: 2 }}>{t('signInSteps.enrol.intro')}</Typography>
      <Box sx={{ display: 'flex', justifyContent: 'center', mb: 2 }}>
        <QRCodeSVG
          value={setup.data.otpauthUri}
          size={184}
          marginSize={2}
          role="img"
          aria-label={t('signInSteps.enrol.qrLabel')}
          title={t('signInSteps.enrol.qrLabel')}
        />
      </Box>
      <Typography variant="body2">{t('signInSteps.enrol.secret')}</Typography>
      <Typography
        component="code"
        data-testid="totp-secret"
        sx={{ display: 'block', fontFamily: 'monospace', fontSize: '1.05rem', my: 1 }}
      >
        {grouped(setup.data.secret)}
      </Typography>
      <Box component="form" noValidate onSubmit={onSubmit}>
        <CodeField
          kind="totp"
          label={t('signInSteps.secondFactor.code')}
          value={code}
          inputRef={field}
          onChange={(value) => {
            setCode(value);
            setMissing(false);
          }}
          error={missing ? t('signInSteps.secondFactor.codeRequired') : null}
        />
        {confirm.isError ? (
          <Alert severity="error" role="alert" sx={{ mt: 1 }}>
            {stepFailureText(t, confirm.error, 'enrol')}
          </Alert>
        ) : null}
        <Button
          type="submit"
          variant="contained"
          fullWidth
          size="large"
          disabled={confirm.isPending}
          sx={{ mt: 2 }}
        >
          {confirm.isPending ? t('signInSteps.enrol.confirming') : t('signInSteps.enrol.confirm')}
        </Button>
      </Box>
      {back}
    </>
  );
}
