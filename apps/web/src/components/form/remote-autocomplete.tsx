import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Paper, { type PaperProps } from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueries } from '@tanstack/react-query';
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import type { FieldValues, PathValue } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  entityQueryOptions,
  PICKER_PAGE_SIZE,
  usePage,
  type EntityName,
} from '../../lib/entity-api';
import { useCountText } from '../../lib/use-count-text';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useFieldError, type FieldProps, type Option } from './form-fields';

/** Typing waits this long for a pause before it asks the server. */
export const PICKER_SEARCH_DELAY_MS = 250;

export interface RemoteAutocompleteProps<Values extends FieldValues, Out, Row> extends FieldProps<
  Values,
  Out
> {
  /** The list searched: its page route with `filter.search`, one short page at a time. */
  entity: EntityName;
  /** The column the offers are sorted by, the list's natural order (users by e-mail). */
  sortField: string;
  toOption: (row: Row) => Option;
  /**
   * Labels the form knows already for values it may hold (the edited row's owner, people or
   * role names), so they show without asking the server for each.
   */
  known?: readonly Option[];
  /** Several ids (chips) instead of one; the value is then the id list. */
  multiple?: boolean;
  placeholder?: string;
  autoFocus?: boolean;
  /**
   * False where the caller may not read the list: the chosen ids are shown as they are and
   * nothing is offered or fetched.
   */
  searchable?: boolean;
}

/** The line under the offers, saying that there are more than those shown. */
const FooterContext = createContext<ReactNode>(null);

function PickerPaper({ children, ...props }: PaperProps) {
  const footer = useContext(FooterContext);
  return (
    <Paper {...props}>
      {children}
      {footer}
    </Paper>
  );
}

const idsOf = (value: unknown, multiple: boolean): string[] =>
  multiple
    ? ((value as string[] | undefined) ?? [])
    : typeof value === 'string' && value !== ''
      ? [value]
      : [];

/**
 * The chosen ids with their labels: the option that was picked, else a label the form
 * knows, else the row itself, fetched by id. A row gone meanwhile shows its id.
 */
function useChosenOptions<Row>(
  props: Pick<RemoteAutocompleteProps<FieldValues, unknown, Row>, 'entity' | 'toOption' | 'known'>,
  ids: string[],
  picked: ReadonlyMap<string, Option>,
  enabled: boolean,
): Option[] {
  const known = new Map((props.known ?? []).map((option) => [option.value, option]));
  const missing = ids.filter((id) => !picked.has(id) && !known.has(id));
  const fetched = useQueries({
    queries: missing.map((id) => ({
      ...entityQueryOptions<Row>(props.entity, id),
      enabled,
      staleTime: 60_000,
    })),
  });
  const fetchedById = new Map(missing.map((id, index) => [id, fetched[index]]));
  const options = ids.map((id) => {
    const option = picked.get(id) ?? known.get(id);
    if (option) return option;
    const query = fetchedById.get(id);
    if (query?.data) return props.toOption(query.data);
    return { value: id, label: enabled && query?.isPending ? '…' : id };
  });
  // The same array while ids and labels stay the same: Autocomplete takes a new value array
  // for a new choice and empties what is being typed.
  const identity = options.map((option) => `${option.value}\u0000${option.label}`).join('\u0001');
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `identity` stands for `options`
  return useMemo(() => options, [identity]);
}

/**
 * A type-ahead field over a server list (MUI Autocomplete): what is typed searches the
 * server after a pause, the offers are the first page of matches, and the chosen values keep
 * their labels whether or not they are among the offers. One id (`''` for none) or, with
 * `multiple`, an id list, in a react-hook-form field.
 */
export function RemoteAutocomplete<Values extends FieldValues, Out, Row>(
  props: RemoteAutocompleteProps<Values, Out, Row>,
) {
  const { t } = useTranslation('lists');
  const { field, error, helperText } = useFieldError(props);
  const countText = useCountText();
  const multiple = props.multiple ?? false;
  const searchable = props.searchable ?? true;
  const [picked, setPicked] = useState<ReadonlyMap<string, Option>>(new Map());
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const search = useDebouncedValue(typed.trim(), PICKER_SEARCH_DELAY_MS);

  const ids = idsOf(field.value, multiple);
  const chosen = useChosenOptions(props, ids, picked, searchable);
  const results = usePage<Row>(
    props.entity,
    {
      pageIndex: 1,
      pageSize: PICKER_PAGE_SIZE,
      filter: search ? { search } : {},
      listSort: { field: props.sortField, direction: 0 },
    },
    open && searchable,
  );
  const page = searchable ? results.data : undefined;
  const options = (page?.data ?? []).map(props.toOption);
  const loading = open && searchable && (typed.trim() !== search || results.isFetching);
  const footer =
    !loading && page && page.totalCount > page.data.length ? (
      <Typography
        variant="body2"
        color="text.secondary"
        component="div"
        sx={{ px: 2, py: 1, borderTop: 1, borderColor: 'divider' }}
        // Reading the line must not take the focus from the field (that would close the list).
        onMouseDown={(event) => event.preventDefault()}
      >
        {t('pickerMore', {
          shown: countText(page.data.length),
          total: countText(page.totalCount, page.totalCountIsEstimate),
        })}
      </Typography>
    ) : null;

  const choose = (value: Option | Option[] | null) => {
    const list = value === null ? [] : Array.isArray(value) ? value : [value];
    setPicked((current) => new Map([...current, ...list.map((o) => [o.value, o] as const)]));
    const next = multiple ? list.map((option) => option.value) : (list[0]?.value ?? '');
    field.onChange(next as PathValue<Values, typeof props.name>);
  };

  return (
    <FooterContext.Provider value={footer}>
      <Autocomplete<Option, boolean, false, false>
        multiple={multiple}
        options={options}
        value={multiple ? chosen : (chosen[0] ?? null)}
        onChange={(_event, value) => choose(value)}
        onBlur={field.onBlur}
        open={open}
        onOpen={() => setOpen(true)}
        onClose={() => setOpen(false)}
        onInputChange={(_event, value, reason) => setTyped(reason === 'input' ? value : '')}
        // The server has searched already; its order is the list's.
        filterOptions={(offered) => offered}
        filterSelectedOptions={multiple}
        getOptionLabel={(option) => option.label}
        getOptionKey={(option) => option.value}
        isOptionEqualToValue={(option, value) => option.value === value.value}
        renderOption={({ key, ...optionProps }, option) => (
          <li key={key} {...optionProps}>
            <Box>
              <Typography component="span" sx={{ display: 'block' }}>
                {option.label}
              </Typography>
              {option.detail ? (
                <Typography
                  component="span"
                  variant="body2"
                  color="text.secondary"
                  sx={{ display: 'block' }}
                >
                  {option.detail}
                </Typography>
              ) : null}
            </Box>
          </li>
        )}
        loading={loading}
        loadingText={t('searching')}
        noOptionsText={t('noMatches')}
        openText={t('openChoices')}
        closeText={t('closeChoices')}
        clearText={t('clearChoice')}
        disabled={props.disabled}
        slots={{ paper: PickerPaper }}
        renderInput={(params) => (
          <TextField
            {...params}
            inputRef={field.ref}
            name={field.name}
            label={props.label}
            required={props.required && ids.length === 0}
            placeholder={ids.length === 0 ? props.placeholder : undefined}
            autoFocus={props.autoFocus}
            error={error}
            helperText={helperText}
            margin="dense"
            slotProps={{
              ...params.slotProps,
              input: {
                ...params.slotProps.input,
                endAdornment: (
                  <>
                    {loading ? (
                      <CircularProgress color="inherit" size={18} aria-label={t('searching')} />
                    ) : null}
                    {params.slotProps.input.endAdornment}
                  </>
                ),
              },
            }}
          />
        )}
      />
    </FooterContext.Provider>
  );
}
