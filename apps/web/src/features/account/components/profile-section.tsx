import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { accountProfileUpdateSchema, type AccountProfile } from '@tc/contract/security';
import { useState } from 'react';
import { Controller, useForm, type FieldPath, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { SelectInput, TextInput } from '../../../components/form/form-fields';
import { notify } from '../../../components/notifications';
import { SectionCard } from '../../../components/section-card';
import { contractResolver } from '../../../lib/form-resolver';
import i18n, { languages } from '../../../lib/i18n';
import { placeFieldProblems } from '../../../lib/problem-text';
import { useProfile, useUpdateProfile } from '../api/profile';
import { SectionLoadFailed, SectionLoading } from './load-state';

/** The select's value for "follow the browser", which the API says as null. */
const BROWSER = 'browser';

interface ProfileForm {
  firstName: string;
  lastName: string;
  locale: string;
  notifyNewBrowser: boolean;
}

const profileFormSchema = accountProfileUpdateSchema.extend({
  locale: z.preprocess(
    (value) => (value === BROWSER ? null : value),
    accountProfileUpdateSchema.shape.locale,
  ),
});

const formValues = (profile: AccountProfile): ProfileForm => ({
  firstName: profile.firstName,
  lastName: profile.lastName,
  locale: profile.locale ?? BROWSER,
  notifyNewBrowser: profile.notifyNewBrowser,
});

/** Name, language and the new-browser mail; the e-mail address is shown, not changed here. */
export function ProfileSection() {
  const { t } = useTranslation('account');
  const profile = useProfile();
  return (
    <SectionCard title={t('profile.heading')}>
      {profile.isPending ? <SectionLoading /> : null}
      {profile.isError ? (
        <SectionLoadFailed error={profile.error} onRetry={() => void profile.refetch()} />
      ) : null}
      {profile.isSuccess ? <ProfileFields profile={profile.data} /> : null}
    </SectionCard>
  );
}

function ProfileFields({ profile }: { profile: AccountProfile }) {
  const { t } = useTranslation(['account', 'translation', 'lists']);
  const save = useUpdateProfile();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<ProfileForm, unknown, z.output<typeof profileFormSchema>>({
    resolver: contractResolver(profileFormSchema as never) as unknown as Resolver<
      ProfileForm,
      unknown,
      z.output<typeof profileFormSchema>
    >,
    defaultValues: formValues(profile),
  });

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      const saved = await save.mutateAsync(values);
      form.reset(formValues(saved));
      notify(t('profile.saved'));
      // The chosen language is the interface's too; "browser default" leaves it as it is.
      if (saved.locale && saved.locale !== i18n.resolvedLanguage) {
        await i18n.changeLanguage(saved.locale);
      }
    } catch (error) {
      const fields = new Set(Object.keys(form.getValues()));
      setFailure(
        placeFieldProblems(t, error, fields, (field, message) =>
          form.setError(field as FieldPath<ProfileForm>, { type: 'server', message }),
        ).failure,
      );
    }
  });

  const busy = form.formState.isSubmitting;
  return (
    <Stack component="form" noValidate onSubmit={(event) => void submit(event)} spacing={1}>
      {failure ? (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      ) : null}
      <TextField
        label={t('profile.email')}
        value={profile.email}
        fullWidth
        margin="dense"
        slotProps={{ htmlInput: { readOnly: true } }}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: { sm: 2 } }}>
        <TextInput
          control={form.control}
          name="firstName"
          label={t('profile.firstName')}
          autoComplete="given-name"
          disabled={busy}
          required
        />
        <TextInput
          control={form.control}
          name="lastName"
          label={t('profile.lastName')}
          autoComplete="family-name"
          disabled={busy}
          required
        />
      </Stack>
      <SelectInput
        control={form.control}
        name="locale"
        label={t('profile.language')}
        disabled={busy}
        options={[
          { value: BROWSER, label: t('profile.browserLanguage') },
          ...languages.map((language) => ({
            value: language,
            label: t(`translation:language.${language}`),
          })),
        ]}
      />
      <Controller
        control={form.control}
        name="notifyNewBrowser"
        render={({ field }) => (
          <FormControlLabel
            control={
              <Switch
                checked={field.value}
                onChange={(event) => field.onChange(event.target.checked)}
                onBlur={field.onBlur}
                slotProps={{ input: { ref: field.ref } }}
                disabled={busy}
              />
            }
            label={t('profile.notifyNewBrowser')}
          />
        )}
      />
      <div>
        <Button type="submit" variant="contained" disabled={busy}>
          {t('profile.save')}
        </Button>
      </div>
    </Stack>
  );
}
