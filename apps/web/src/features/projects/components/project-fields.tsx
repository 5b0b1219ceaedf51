import Grid from '@mui/material/Grid';
import type { Project } from '@tc/contract/projects';
import type { User } from '@tc/contract/users';
import { useMemo } from 'react';
import type { Control } from 'react-hook-form';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { SelectInput, TextInput, type Option } from '../../../components/form/form-fields';
import { RemoteAutocomplete } from '../../../components/form/remote-autocomplete';
import { countryOptions, formatBudget, type ProjectForm } from '../form-state';

const fullName = (user: User) => `${user.firstName} ${user.lastName}`.trim() || user.email;

/** A user as the owner and people pickers offer them: the name, the e-mail beneath it. */
const userOption = (user: User): Option => ({
  value: user.id,
  label: fullName(user),
  detail: user.email,
});

/** The names the edited project already holds for its owner and people. */
function knownPeople(row: Project | undefined): Option[] {
  if (!row) return [];
  const people = row.people.map((person) => ({ value: person.id, label: person.name }));
  return row.ownerId && row.owner ? [{ value: row.ownerId, label: row.owner }, ...people] : people;
}

/** The project form's fields, beside the logo. */
export function ProjectFields(props: {
  control: Control<ProjectForm, unknown, unknown>;
  row?: Project;
  disabled: boolean;
  autoFocus: boolean;
}) {
  const { t, i18n } = useTranslation(['projects', 'lists']);
  const language = i18n.resolvedLanguage ?? 'en';
  const { control, disabled } = props;
  const known = useMemo(() => knownPeople(props.row), [props.row]);
  const countries = useMemo(() => countryOptions(language), [language]);
  const budget = useWatch({ control, name: 'budget' });
  const shown = formatBudget(String(budget ?? ''), language);
  const half = { xs: 12, sm: 6 };

  return (
    <Grid container columnSpacing={2}>
      <Grid size={half}>
        <TextInput
          control={control}
          name="name"
          label={t('projectName')}
          required
          autoFocus={props.autoFocus}
          disabled={disabled}
        />
      </Grid>
      <Grid size={half}>
        <TextInput control={control} name="short" label={t('short')} disabled={disabled} />
      </Grid>
      <Grid size={12}>
        <TextInput
          control={control}
          name="description"
          label={t('description')}
          multiline
          disabled={disabled}
        />
      </Grid>
      <Grid size={half}>
        <RemoteAutocomplete
          control={control}
          name="ownerId"
          label={t('owner')}
          entity="users"
          sortField="email"
          toOption={userOption}
          known={known}
          placeholder={t('noOwner')}
          disabled={disabled}
        />
      </Grid>
      <Grid size={half}>
        <TextInput
          control={control}
          name="projectNumber"
          label={t('projectNumber')}
          required
          disabled={disabled}
        />
      </Grid>
      <Grid size={half}>
        <TextInput
          control={control}
          name="budget"
          label={t('budget')}
          inputMode="decimal"
          disabled={disabled}
          helperText={shown ? t('budgetShown', { amount: shown }) : t('budgetHint')}
        />
      </Grid>
      <Grid size={half}>
        <SelectInput
          control={control}
          name="country"
          label={t('country')}
          emptyLabel={t('lists:choose')}
          options={countries}
          disabled={disabled}
        />
      </Grid>
      <Grid size={half}>
        <TextInput control={control} name="city" label={t('city')} disabled={disabled} />
      </Grid>
      <Grid size={half}>
        <TextInput
          control={control}
          name="postalCode"
          label={t('postalCode')}
          disabled={disabled}
        />
      </Grid>
      <Grid size={12}>
        <TextInput control={control} name="address" label={t('address')} disabled={disabled} />
      </Grid>
      <Grid size={12}>
        <RemoteAutocomplete
          control={control}
          name="peopleIds"
          label={t('people')}
          multiple
          entity="users"
          sortField="email"
          toOption={userOption}
          known={known}
          placeholder={t('peoplePlaceholder')}
          disabled={disabled}
        />
      </Grid>
    </Grid>
  );
}
