import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { isProblemCode } from '@tc/contract/problem-codes';
import type {
  UserImportRow,
  UserImportRowProblem,
  UserImportRowStatus,
} from '@tc/contract/user-import';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeFailure, translateCode } from '../../../lib/problem-text';
import { fetchRows, importKeys } from '../api/user-import-api';

const BEFORE: readonly UserImportRowStatus[] = ['error', 'valid', 'existing'];
const AFTER: readonly UserImportRowStatus[] = ['failed', 'created', 'skipped'];
const ALL = 'all';

const STATUS_COLOR: Record<UserImportRowStatus, 'success' | 'error' | 'default' | 'warning'> = {
  valid: 'success',
  created: 'success',
  error: 'error',
  failed: 'error',
  existing: 'default',
  skipped: 'default',
};

function problemText(t: TFunction, problem: UserImportRowProblem) {
  return isProblemCode(problem.code)
    ? translateCode(t, { code: problem.code, params: problem.params })
    : problem.code;
}

/**
 * The checked rows, a page at a time, errors first by default: each row's problems are
 * translated from their codes. Once applied, the same table shows each row's outcome.
 */
export function ImportRowsTable(props: { jobId: string; applied: boolean }) {
  const { t } = useTranslation(['userImport', 'problems']);
  const statuses = props.applied ? AFTER : BEFORE;
  const [status, setStatus] = useState<UserImportRowStatus | typeof ALL>(ALL);
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(25);
  const filter = status === ALL || !statuses.includes(status) ? undefined : status;
  const rows = useQuery({
    queryKey: importKeys.rows(props.jobId, page, pageSize, filter),
    queryFn: ({ signal }) =>
      fetchRows(props.jobId, { pageIndex: page + 1, pageSize, status: filter }, signal),
    placeholderData: keepPreviousData,
  });

  return (
    <Stack spacing={1}>
      <TextField
        select
        size="small"
        label={t('showRows')}
        value={filter ?? ALL}
        onChange={(event) => {
          setStatus(event.target.value as UserImportRowStatus | typeof ALL);
          setPage(0);
        }}
        sx={{ maxWidth: 260 }}
      >
        <MenuItem value={ALL}>{t('rowStatus.all')}</MenuItem>
        {statuses.map((one) => (
          <MenuItem key={one} value={one}>
            {t(`rowStatus.${one}`)}
          </MenuItem>
        ))}
      </TextField>
      {rows.isError ? <Alert severity="error">{describeFailure(t, rows.error)}</Alert> : null}
      {rows.isPending ? <CircularProgress aria-label={t('loadingRows')} /> : null}
      {rows.data ? (
        <>
          <TableContainer>
            <Table size="small" aria-label={t('rowsTable')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('line')}</TableCell>
                  <TableCell>{t('field.firstName')}</TableCell>
                  <TableCell>{t('field.lastName')}</TableCell>
                  <TableCell>{t('field.email')}</TableCell>
                  <TableCell>{t('field.role')}</TableCell>
                  <TableCell>{t('rowState')}</TableCell>
                  <TableCell>{t('problems')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.data.data.length === 0 ? (
                  <TableRow>
                    <TableCell colSpan={7}>
                      <Typography color="text.secondary">{t('noRows')}</Typography>
                    </TableCell>
                  </TableRow>
                ) : (
                  rows.data.data.map((row: UserImportRow) => (
                    <TableRow key={row.line}>
                      <TableCell>{row.line}</TableCell>
                      <TableCell>{row.firstName}</TableCell>
                      <TableCell>{row.lastName}</TableCell>
                      <TableCell>{row.email}</TableCell>
                      <TableCell>{row.role}</TableCell>
                      <TableCell>
                        <Chip
                          size="small"
                          label={t(`rowStatus.${row.status}`)}
                          color={STATUS_COLOR[row.status]}
                          variant="outlined"
                        />
                      </TableCell>
                      <TableCell>
                        {row.problems.map((problem, index) => (
                          <Typography key={index} variant="body2">
                            {problemText(t, problem)}
                          </Typography>
                        ))}
                      </TableCell>
                    </TableRow>
                  ))
                )}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePagination
            component="div"
            count={rows.data.totalCount}
            page={page}
            rowsPerPage={pageSize}
            rowsPerPageOptions={[10, 25, 100]}
            onPageChange={(_event, next) => setPage(next)}
            onRowsPerPageChange={(event) => {
              setPageSize(Number(event.target.value));
              setPage(0);
            }}
            labelRowsPerPage={t('rowsPerPage')}
          />
        </>
      ) : null}
    </Stack>
  );
}
