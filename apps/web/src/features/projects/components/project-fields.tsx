import Grid from '@mui/material/Grid';
import type { Project } from '@tc/contract/projects';
import type { User } from '@tc/contract/users';
import { useMemo } from 'react';
import type { Control } from 'react-hook-form';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  MultiSelectInput,
  SelectInput,
  TextInput,
  type Option,
} from '../../../components/form/form-fields';
import { useChoices } from '../../../lib/entity-api';
import { countryOptions, formatBudget, type ProjectForm } from '../form-state';

const fullName = (user: User) => `${user.firstName} ${user.lastName}`.trim() || user.email;

/**
 * The tenant's users to choose from (the first 100 by e-mail, as useChoices gives them), plus
 * the project's own owner and people, so an edited project shows names even beyond those.
 */
function usePeopleOptions(row: Project | undefined, enabled: boolean) {
  const users = useChoices<User>('users', 'email', enabled);
  const options = useMemo(() => {
    const byId = new Map<string, Option>();
    for (const user of users.data?.data ?? []) {
      byId.set(user.id, { value: user.id, label: fullName(user) });
    }
    if (row?.ownerId && !byId.has(row.ownerId)) {
      byId.set(row.ownerId, { value: row.ownerId, label: row.owner ?? row.ownerId });
    }
    for (const person of row?.people ?? []) {
      if (!byId.has(person.id)) byId.set(person.id, { value: person.id, label: person.name });
    }
    return [...byId.values()];
  }, [users.data, row]);
  return { options, loading: users.isLoading };
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
  const people = usePeopleOptions(props.row, true);
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
        <SelectInput
          control={control}
          name="ownerId"
          label={t('owner')}
          emptyLabel={t('noOwner')}
          options={people.options}
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
        <MultiSelectInput
          control={control}
          name="peopleIds"
          label={t('people')}
          options={people.options}
          loading={people.loading}
          placeholder={t('peoplePlaceholder')}
          disabled={disabled}
        />
      </Grid>
    </Grid>
  );
}
