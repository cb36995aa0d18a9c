"""MindRecord's exception classes, with MindSpore's names and messages (``mindspore.mindrecord.common.exceptions``)."""
from __future__ import annotations

__all__ = ["MindRecordException", "ParamValueError", "ParamTypeError", "ParamMissError", "PathNotExistsError",
           "MRMOpenError", "MRMOpenForAppendError", "MRMInvalidPageSizeError", "MRMInvalidHeaderSizeError",
           "MRMSetHeaderError", "MRMWriteDatasetError", "MRMCommitError", "MRMAddSchemaError", "MRMAddIndexError",
           "MRMBuildSchemaError", "MRMGetMetaError", "MRMIndexGeneratorError", "MRMGenerateIndexError",
           "MRMFetchDataError", "MRMInvalidSchemaError", "MRMValidateDataError", "MRMDefineIndexError",
           "MRMDefineBlobError", "MRMUnsupportedSchemaError"]


class MindRecordException(Exception):
    """Base of MindRecord errors; ``str(err)`` is ``[ClassName]: message`` as in MindSpore.

    Arguments:
        error_msg: the message (each subclass has MindSpore's default).
    """

    _default = "Unknown Error."

    def __init__(self, error_msg: str | None = None) -> None:
        self.error_msg = self._default if error_msg is None else error_msg
        super().__init__(self.error_msg)

    def __str__(self) -> str:
        return f"[{type(self).__name__}]: {self.error_msg}"


def _simple(name: str, default: str) -> type:
    return type(name, (MindRecordException,), {"_default": default, "__doc__": default,
                                                "__module__": __name__})


class ParamValueError(MindRecordException):
    """A parameter has a wrong value."""

    def __init__(self, error_detail: str) -> None:
        super().__init__(f"Invalid parameter value. {error_detail}")


class ParamTypeError(MindRecordException):
    """A parameter has a wrong type."""

    def __init__(self, param_name: str, expected_type: str) -> None:
        super().__init__(f"Invalid parameter type. '{param_name}' expect {expected_type} type.")


class ParamMissError(MindRecordException):
    """A parameter is missing."""

    def __init__(self, param_name: str) -> None:
        super().__init__(f"Param missing. '{param_name}' is required.")


class PathNotExistsError(MindRecordException):
    """A path does not exist."""

    def __init__(self, error_path: str) -> None:
        super().__init__(f"Invalid path. '{error_path}' does not exist.")


class MRMInvalidSchemaError(MindRecordException):
    """The schema given to ``add_schema`` is malformed."""

    def __init__(self, error_detail: str) -> None:
        super().__init__(f"Schema format is error. Detail: {error_detail}")


class MRMValidateDataError(MindRecordException):
    """Raw data does not match the schema."""

    def __init__(self, error_detail: str) -> None:
        super().__init__(f"Raw data do not match the schema. Detail: {error_detail}")


class MRMDefineIndexError(MindRecordException):
    """An index field is not a scalar field of the schema."""

    def __init__(self, error_detail: str) -> None:
        super().__init__(f"Failed to define index field. Detail: {error_detail}")


class MRMDefineBlobError(MindRecordException):
    """A blob field is wrong."""

    def __init__(self, error_detail: str) -> None:
        super().__init__(f"Failed to define blob field. Detail: {error_detail}")


class MRMUnsupportedSchemaError(MindRecordException):
    """The schema is not supported."""

    def __init__(self, error_detail: str) -> None:
        super().__init__(f"Schema is not supported. Detail: {error_detail}")


MRMOpenError = _simple("MRMOpenError", "MindRecord could not open.")
MRMOpenForAppendError = _simple("MRMOpenForAppendError", "MindRecord could not open for append.")
MRMInvalidPageSizeError = _simple("MRMInvalidPageSizeError", "Failed to set page size.")
MRMInvalidHeaderSizeError = _simple("MRMInvalidHeaderSizeError", "Failed to set header size.")
MRMSetHeaderError = _simple("MRMSetHeaderError", "Failed to set header.")
MRMWriteDatasetError = _simple("MRMWriteDatasetError", "Failed to write dataset.")
MRMCommitError = _simple("MRMCommitError", "Failed to commit.")
MRMAddSchemaError = _simple("MRMAddSchemaError", "Failed to add schema.")
MRMAddIndexError = _simple("MRMAddIndexError", "Failed to add index field.")
MRMBuildSchemaError = _simple("MRMBuildSchemaError", "Failed to build schema.")
MRMGetMetaError = _simple("MRMGetMetaError", "Failed to get meta info.")
MRMIndexGeneratorError = _simple("MRMIndexGeneratorError", "Failed to create index generator.")
MRMGenerateIndexError = _simple("MRMGenerateIndexError", "Failed to generate index.")
MRMFetchDataError = _simple("MRMFetchDataError", "Failed to fetch data by category.")
