import Grid from '@mui/material/Grid';
import { ID_TOKEN_ALGORITHMS, type Client } from '@tc/contract/clients';
import type { Role } from '@tc/contract/roles';
import { useMemo } from 'react';
import { useWatch, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  MultiSelectInput,
  SelectInput,
  TextInput,
  type Option,
} from '../../../components/form/form-fields';
import { useChoices } from '../../../lib/entity-api';
import { useCan } from '../../../lib/permissions';
import type { ClientForm } from '../form-state';
import { GrantTypesField } from './grant-types-field';
import { UriListField } from './uri-list-field';

/**
 * The tenant's roles to choose service roles from (the first 100 by name, as the other
 * dialogs offer roles: the roles list has no search of its own). Without roles:read, the
 * chosen ones are shown by id and nothing is offered.
 */
function useRoleOptions(enabled: boolean): { options: Option[]; loading: boolean } {
  const mayRead = useCan('roles:read');
  const roles = useChoices<Role>('roles', 'name', enabled && mayRead);
  const options = useMemo(
    () => (roles.data?.data ?? []).map((role) => ({ value: role.id, label: role.name })),
    [roles.data],
  );
  return { options, loading: roles.isLoading && mayRead };
}

/** The client form: identity, type and grants, service roles, addresses, ID token signing. */
export function ClientFields(props: {
  control: Control<ClientForm, unknown, unknown>;
  row?: Client;
  disabled: boolean;
  autoFocus: boolean;
}) {
  const { t } = useTranslation(['clients', 'lists']);
  const { control, disabled } = props;
  const builtIn = props.row?.builtIn ?? false;
  const [type, grants] = useWatch({ control, name: ['type', 'grantTypes'] });
  const serviceGrant = type === 'confidential' && grants.includes('client_credentials');
  const roles = useRoleOptions(serviceGrant);
  const half = { xs: 12, sm: 6 };
  const uri = (name: 'redirectUris' | 'postLogoutRedirectUris' | 'webOrigins', example: string) => (
    <Grid size={12}>
      <UriListField
        control={control}
        name={name}
        label={t(name)}
        hint={t(`${name}Hint`)}
        placeholder={example}
        disabled={disabled}
      />
    </Grid>
  );

  return (
    <Grid container columnSpacing={2}>
      <Grid size={half}>
        <TextInput
          control={control}
          name="name"
          label={t('name')}
          required
          autoFocus={props.autoFocus}
          disabled={disabled}
        />
      </Grid>
      <Grid size={half}>
        <TextInput
          control={control}
          name="clientId"
          label={t('clientId')}
          required
          placeholder="my-app"
          disabled={disabled || builtIn}
          helperText={builtIn ? t('builtInHint') : t('clientIdHint')}
        />
      </Grid>
      <Grid size={half}>
        <SelectInput
          control={control}
          name="type"
          label={t('type')}
          required
          options={[
            { value: 'confidential', label: t('types.confidential') },
            { value: 'public', label: t('types.public') },
          ]}
          disabled={disabled || builtIn}
          helperText={t(type === 'public' ? 'typeHint.public' : 'typeHint.confidential')}
        />
      </Grid>
      <Grid size={half}>
        <SelectInput
          control={control}
          name="idTokenSignedResponseAlg"
          label={t('idTokenAlgorithm')}
          options={ID_TOKEN_ALGORITHMS.map((alg) => ({ value: alg, label: alg }))}
          disabled={disabled}
        />
      </Grid>
      <Grid size={12}>
        <GrantTypesField control={control} type={type} disabled={disabled} />
      </Grid>
      {serviceGrant ? (
        <Grid size={12}>
          <MultiSelectInput
            control={control}
            name="serviceRoleIds"
            label={t('serviceRoles')}
            options={roles.options}
            loading={roles.loading}
            placeholder={t('lists:choose')}
            helperText={t('serviceRolesHint')}
            disabled={disabled}
          />
        </Grid>
      ) : null}
      {uri('redirectUris', 'https://app.example.com/callback')}
      {uri('postLogoutRedirectUris', 'https://app.example.com/')}
      {uri('webOrigins', 'https://app.example.com')}
    </Grid>
  );
}
