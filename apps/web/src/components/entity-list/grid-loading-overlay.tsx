import Box from '@mui/material/Box';
import { GridLoadingOverlay, type GridLoadingOverlayProps } from '@mui/x-data-grid';

/**
 * The grid's own loading bar, hidden from assistive technology. The grid's element has the
 * role grid, whose children may only be rows and row groups: a progress bar inside it (with
 * no name either) made the whole grid invalid to a screen reader each time a page, a sort or
 * a live update was being fetched. That state is told by `aria-busy` on what holds the grid
 * instead (the grid passes no such property on to its elements).
 */
export function GridBusyOverlay(props: GridLoadingOverlayProps) {
  return (
    <Box aria-hidden sx={{ display: 'contents' }}>
      <GridLoadingOverlay {...props} />
    </Box>
  );
}
