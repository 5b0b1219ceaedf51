import type { TotpSetup } from '@tc/contract/security';
import { useEffect, useRef, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { NoScriptNote } from '../ui/no-script-note';
import { Alert, Button, PrimaryButton, Progress } from '../ui/controls';
import { CodeField, TextField } from '../ui/fields';
import { CopyButton } from '../ui/recovery-codes-list';
import { useExtraTexts } from '../ui/use-extra-texts';
import { stepFailureText } from './step-failure';
import { useCodeEntry } from './use-code-entry';

type QrCode = ComponentType<{
  value: string;
  size: number;
  marginSize: number;
  role: string;
  'aria-label': string;
  title: string;
}>;

type Setup =
  | { status: 'pending' }
  | { status: 'error'; error: unknown }
  | { status: 'ready'; setup: TotpSetup; QRCodeSVG: QrCode };

/**
 * One secret per visit of the step, and the QR code's library (few sign-ins reach this step):
 * started once the page runs, once, even when React mounts the step twice (StrictMode).
 */
function useEnrolmentSetup(start: () => Promise<TotpSetup>): Setup {
  const [setup, setSetup] = useState<Setup>({ status: 'pending' });
  const started = useRef<Promise<[TotpSetup, QrCode]> | null>(null);
  useEffect(() => {
    let active = true;
    started.current ??= Promise.all([
      start(),
      import('qrcode.react').then((library) => library.QRCodeSVG as QrCode),
    ]);
    started.current.then(
      ([answer, QRCodeSVG]) => active && setSetup({ status: 'ready', setup: answer, QRCodeSVG }),
      (error: unknown) => active && setSetup({ status: 'error', error }),
    );
    return () => {
      active = false;
    };
  }, [start]);
  return setup;
}

/**
 * The enrolment the tenant requires, right after the password: the authenticator app's QR code
 * (and its key as text, for an app on the same device), then the app's first code. The answer
 * holds the recovery codes, which the next step shows once. It needs script: the page
 * rendered without says so.
 */
export default function EnrolStep(props: {
  start: () => Promise<TotpSetup>;
  confirm: (code: string) => Promise<void>;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const [start] = useState(() => props.start);
  const setup = useEnrolmentSetup(start);
  const texts = useExtraTexts(['second-factor', 'lists']);
  const entry = useCodeEntry(props.confirm);
  const back = <Button onClick={props.onBack}>{t('signInSteps.back')}</Button>;

  if (setup.status === 'error') {
    return (
      <>
        <Alert severity="error">{stepFailureText(t, setup.error, 'enrol')}</Alert>
        {back}
      </>
    );
  }
  if (setup.status === 'pending' || !texts) {
    return (
      <>
        <NoScriptNote text={t('signInSteps.enrol.needsScript')} />
        <Progress label={t('signInSteps.enrol.loading')} />
      </>
    );
  }
  const { QRCodeSVG } = setup;
  return (
    <>
      <p className="auth-text">{t('signInSteps.enrol.intro')}</p>
      <div className="auth-qr">
        <QRCodeSVG
          value={setup.setup.otpauthUri}
          size={184}
          marginSize={2}
          role="img"
          aria-label={t('second-factor:totp.qrLabel')}
          title={t('second-factor:totp.qrLabel')}
        />
      </div>
      <TextField
        label={t('second-factor:totp.secret')}
        value={setup.setup.secret}
        onChange={() => undefined}
        readOnly
        spellCheck={false}
        className="auth-input-code"
        data-testid="totp-secret"
        onFocus={(event) => event.target.select()}
      />
      <CopyButton text={setup.setup.secret} label={t('second-factor:totp.copySecret')} />
      <form noValidate onSubmit={entry.submit}>
        <CodeField
          kind="totp"
          label={t('second-factor:totp.code')}
          value={entry.code}
          onChange={entry.change}
          error={entry.missing ? t('signInSteps.secondFactor.codeRequired') : null}
          inputRef={entry.field}
        />
        {entry.failure !== undefined ? (
          <Alert severity="error">{stepFailureText(t, entry.failure, 'enrol')}</Alert>
        ) : null}
        <PrimaryButton busy={entry.sending.isPending} busyLabel={t('signInSteps.enrol.confirming')}>
          {t('signInSteps.enrol.confirm')}
        </PrimaryButton>
      </form>
      {back}
    </>
  );
}
